import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface Connection {
  url: string;
  apiKey?: string;
  /** Where the key came from, for messages (never the key itself). */
  source: string;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/**
 * MEMEX_URL and MEMEX_API_KEY when set; otherwise the project `npm start` made, whose key and
 * address it keeps in `<checkout>/.memex/local-project.json` (MEMEX_LOCAL_STATE_DIR moves it).
 * Hooks run in the user's project directory, so the default is anchored at the checkout.
 */
export function resolveConnection(env: NodeJS.ProcessEnv, repoRoot: string): Connection {
  const stateDir = env.MEMEX_LOCAL_STATE_DIR
    ? isAbsolute(env.MEMEX_LOCAL_STATE_DIR)
      ? env.MEMEX_LOCAL_STATE_DIR
      : resolve(env.MEMEX_LOCAL_STATE_DIR)
    : join(repoRoot, '.memex');
  let local: { apiKey?: unknown; url?: unknown } = {};
  const file = join(stateDir, 'local-project.json');
  try {
    local = JSON.parse(readFileSync(file, 'utf8')) as typeof local;
  } catch {
    // No local project: only the environment can say where Memex is.
  }
  const url = (env.MEMEX_URL || (typeof local.url === 'string' ? local.url : '') || DEFAULT_URL).replace(/\/+$/, '');
  if (env.MEMEX_API_KEY) return { url, apiKey: env.MEMEX_API_KEY, source: 'MEMEX_API_KEY' };
  if (typeof local.apiKey === 'string') return { url, apiKey: local.apiKey, source: file };
  return { url, source: 'none' };
}
