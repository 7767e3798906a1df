import { join } from 'node:path';
import type { Config } from '@memex/config';

/** Where embedded mode's database lives: `MEMEX_HOME/pgdata` (`memory://` keeps it in memory, for tests). */
export function embeddedDataDir(config: Pick<Config, 'MEMEX_HOME'>): string {
  return config.MEMEX_HOME.startsWith('memory://') ? config.MEMEX_HOME : join(config.MEMEX_HOME, 'pgdata');
}
