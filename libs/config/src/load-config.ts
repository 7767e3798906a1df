import { configSchema, type Config } from './config.schema';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the whole configuration at once and reports every problem together, not the first. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "unset", as in most shells' `FOO= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  // Naming a server is choosing server mode; with neither, one developer's machine runs it all in process.
  if (present.MEMEX_MODE === undefined && (present.DATABASE_URL || present.REDIS_URL)) present.MEMEX_MODE = 'server';
  const result = configSchema.safeParse(present);
  if (result.success) {
    // Embedded mode keeps one developer's Memex in one place: the database and the local key.
    if (result.data.MEMEX_MODE === 'embedded' && present.MEMEX_LOCAL_STATE_DIR === undefined) {
      return { ...result.data, MEMEX_LOCAL_STATE_DIR: result.data.MEMEX_HOME };
    }
    return result.data;
  }
  throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
}

/** A URL safe to print: the password, if any, replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
