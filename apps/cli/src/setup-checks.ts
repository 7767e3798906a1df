import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMemexHook } from '@memex/claude-hooks';
import type { StatusView } from '@memex/domain';
import type { Connection } from './connection';
import { hookConfig } from './hook/hook-config';
import { HttpFailure, MemexHttp } from './memex-http';

/** One thing `memex doctor` looked at: what it found, and when it is wrong, what to do. */
export interface SetupCheck {
  name: 'server' | 'key' | 'project' | 'hooks' | 'spool';
  ok: boolean;
  found: string;
  fix?: string;
}

export function setupLines(checks: readonly SetupCheck[]): string[] {
  return checks.flatMap((c) => [
    `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.found}`,
    ...(c.fix ? [`     fix: ${c.fix}`] : []),
  ]);
}

async function json(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether settings hold Memex's hook for every event a session needs. */
function hooksIn(settings: unknown): boolean {
  const hooks = (settings as { hooks?: Record<string, unknown> } | undefined)?.hooks;
  if (!hooks) return false;
  return (['SessionStart', 'PostToolUse', 'Stop'] as const).every((event) => {
    const groups = hooks[event];
    return (
      Array.isArray(groups) &&
      groups.some((g: { hooks?: unknown[] }) => (g.hooks ?? []).some((h) => isMemexHook(h, event)))
    );
  });
}

async function spooled(stateDir: string): Promise<number> {
  const root = join(stateDir, 'spool');
  let count = 0;
  for (const dir of await readdir(root).catch(() => [] as string[])) {
    count += (await readdir(join(root, dir)).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).length;
  }
  return count;
}

/**
 * What a person checks when sessions do not reach the brain, in the order it fails: the
 * server answers, a key is there and opens a project, this repository's hooks are installed,
 * and nothing is stuck in the hooks' spool.
 */
export async function setupChecks(
  connection: Connection,
  repoDir: string,
  env: NodeJS.ProcessEnv,
): Promise<SetupCheck[]> {
  const checks: SetupCheck[] = [];
  const http = new MemexHttp(connection);
  try {
    await http.call('GET', '/health/ready', { timeoutMs: 3000 });
    checks.push({ name: 'server', ok: true, found: `Memex answers at ${connection.url}` });
  } catch (error) {
    checks.push({
      name: 'server',
      ok: false,
      found: `Memex at ${connection.url} does not answer (${error instanceof HttpFailure ? error.message : String(error)})`,
      fix: 'start it (`npm start` in the Memex checkout), or set MEMEX_URL to where it runs',
    });
  }
  if (!connection.apiKey) {
    checks.push({
      name: 'key',
      ok: false,
      found: 'no project key (MEMEX_API_KEY, .claude/settings.local.json or the local project of `npm start`)',
      fix: 'run `npm start` once (it makes a local project), then `memex init --write` in this repository',
    });
  } else {
    try {
      const status = JSON.parse(await http.call('GET', '/api/v2/status', { timeoutMs: 3000 })) as StatusView;
      checks.push({ name: 'key', ok: true, found: `from ${connection.source}` });
      checks.push({
        name: 'project',
        ok: true,
        found: `${status.projectId}: ${status.items.live} live items from ${status.sessions.total} sessions`,
      });
    } catch (error) {
      const refused = error instanceof HttpFailure && (error.status === 401 || error.status === 403);
      checks.push(
        refused
          ? {
              name: 'key',
              ok: false,
              found: `the key from ${connection.source} is refused`,
              fix: "run `memex init --write` here again, for a key that opens this repository's project",
            }
          : {
              name: 'key',
              ok: error instanceof HttpFailure && error.kind !== 'status',
              found: `from ${connection.source} (not checked: ${error instanceof Error ? error.message : String(error)})`,
            },
      );
    }
  }
  const settings = [join(repoDir, '.claude', 'settings.local.json'), join(repoDir, '.claude', 'settings.json')];
  const installed = (await Promise.all(settings.map(json))).some(hooksIn);
  checks.push(
    installed
      ? { name: 'hooks', ok: true, found: `installed in ${join(repoDir, '.claude')}` }
      : {
          name: 'hooks',
          ok: false,
          found: `no Memex hooks in ${join(repoDir, '.claude')}`,
          fix: 'run `memex init --write` in this repository',
        },
  );
  const stateDir = hookConfig(env).stateDir;
  const waiting = await spooled(stateDir);
  checks.push(
    waiting === 0
      ? { name: 'spool', ok: true, found: 'nothing waiting to be sent' }
      : {
          name: 'spool',
          ok: false,
          found: `${waiting} request(s) of events waiting in ${join(stateDir, 'spool')}`,
          fix: 'they go out with the next hook once the server answers with a valid key; fix the checks above',
        },
  );
  return checks;
}
