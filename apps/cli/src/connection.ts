import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface Connection {
  url: string;
  /** The project key: the only credential hooks and the MCP server send. */
  apiKey?: string;
  /** MEMEX_ADMIN_TOKEN when MEMEX_API_KEY is not set: a person's commands send it before the local key. */
  adminToken?: string;
  /** Where the key came from, for messages (never the key itself). */
  source: string;
  /** The admin token an embedded `npm start` made beside the local key (`local-admin.json`), if any. */
  localAdminToken?: string;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

/**
 * Where `npm start` may have kept the local project's key and address: MEMEX_LOCAL_STATE_DIR
 * when set (a relative one from the current directory); otherwise the embedded home
 * (MEMEX_HOME, `~/.memex`), then `<checkout>/.memex`, where server mode keeps it. Hooks run in
 * the user's project directory, so nothing is looked for there.
 */
function stateDirs(env: NodeJS.ProcessEnv, repoRoot: string): string[] {
  const given = env.MEMEX_LOCAL_STATE_DIR;
  if (given) return [isAbsolute(given) ? given : resolve(given)];
  return [env.MEMEX_HOME || join(env.HOME || homedir(), '.memex'), join(repoRoot, '.memex')];
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function readLocal(dirs: string[]): { file: string; local: { apiKey?: unknown; url?: unknown; adminToken?: unknown } } {
  for (const dir of dirs) {
    const file = join(dir, 'local-project.json');
    const local = readJson(file);
    // Not here: the next place, or only the environment can say where Memex is.
    if (local) return { file, local: { ...local, adminToken: readJson(join(dir, 'local-admin.json'))?.adminToken } };
  }
  return { file: join(dirs[0] ?? '.memex', 'local-project.json'), local: {} };
}

/**
 * The Memex variables `memex init` wrote for the repository `cwd` is in: its nearest
 * `.claude/settings.local.json` with a Memex key. Claude Code gives them to hooks and the MCP
 * server itself; a person's commands in the repository read them here, so they address the
 * same project.
 */
function repositorySettings(cwd: string): { file: string; apiKey: string; url?: string } | undefined {
  for (let dir = resolve(cwd), depth = 0; depth < 40; dir = dirname(dir), depth += 1) {
    const file = join(dir, '.claude', 'settings.local.json');
    const env = (readJson(file)?.env ?? {}) as { MEMEX_API_KEY?: unknown; MEMEX_URL?: unknown };
    if (typeof env.MEMEX_API_KEY === 'string' && env.MEMEX_API_KEY) {
      return { file, apiKey: env.MEMEX_API_KEY, ...(typeof env.MEMEX_URL === 'string' ? { url: env.MEMEX_URL } : {}) };
    }
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

/**
 * MEMEX_URL and MEMEX_API_KEY when set; otherwise the key `memex init` wrote for the
 * repository of `cwd`; otherwise the project `npm start` made, from its `local-project.json`
 * (see stateDirs). MEMEX_ADMIN_TOKEN is kept apart: only a person's commands use it (see
 * credentialOf).
 */
export function resolveConnection(env: NodeJS.ProcessEnv, repoRoot: string, cwd = process.cwd()): Connection {
  const { file, local: found } = readLocal(stateDirs(env, repoRoot));
  const { adminToken, ...local } = found;
  const localAdmin = typeof adminToken === 'string' ? { localAdminToken: adminToken } : {};
  const url = (env.MEMEX_URL || (typeof local.url === 'string' ? local.url : '') || DEFAULT_URL).replace(/\/+$/, '');
  if (env.MEMEX_API_KEY) return { url, apiKey: env.MEMEX_API_KEY, source: 'MEMEX_API_KEY', ...localAdmin };
  const admin = env.MEMEX_ADMIN_TOKEN ? { adminToken: env.MEMEX_ADMIN_TOKEN } : {};
  const repository = repositorySettings(cwd);
  if (repository) {
    const at = (env.MEMEX_URL || repository.url || url).replace(/\/+$/, '');
    return { url: at, apiKey: repository.apiKey, ...admin, source: repository.file, ...localAdmin };
  }
  if (typeof local.apiKey === 'string') return { url, apiKey: local.apiKey, ...admin, source: file, ...localAdmin };
  return { url, ...admin, source: 'none', ...localAdmin };
}

/** Who a call is made for: the project's own processes (hooks, MCP) or a person at the command line. */
export type Caller = 'project' | 'person';

/**
 * The bearer token of a call. A person's commands take MEMEX_API_KEY, then
 * MEMEX_ADMIN_TOKEN, then the local project's key; hooks and the MCP server only ever send a
 * project key, so an admin token in a shell never reaches them.
 */
export function credentialOf(connection: Connection, caller: Caller): string | undefined {
  return caller === 'person' ? (connection.adminToken ?? connection.apiKey) : connection.apiKey;
}
