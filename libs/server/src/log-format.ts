import type { Config } from '@memex/config';

/** Pretty logs when asked for, or on a terminal when LOG_FORMAT is auto; JSON for everything else. */
export function prettyLogs(config: Pick<Config, 'LOG_FORMAT'>, isTty = Boolean(process.stdout.isTTY)): boolean {
  return config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && isTty);
}
