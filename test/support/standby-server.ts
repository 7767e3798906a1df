import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes';

/**
 * A real PostgreSQL server that refuses every connection with SQLSTATE 57P03 ("the database
 * system is not accepting connections"): a fresh cluster started as a standby with hot standby
 * off, which stays in recovery, as a server does while it starts or after a failover. Needs
 * the server's binaries (found with `pg_config --bindir`); when run as root, they run as the
 * `postgres` user, since PostgreSQL refuses root.
 */
export interface RefusingServer {
  port: number;
  stop(): Promise<void>;
}

/** Why a refusing server cannot be started here, or undefined when it can. */
export function refusingServerUnavailable(): string | undefined {
  const bin = binDir();
  if (!bin) return 'no PostgreSQL server binaries (pg_config --bindir)';
  if (!existsSync(join(bin, 'initdb')) || !existsSync(join(bin, 'pg_ctl'))) return `no initdb or pg_ctl in ${bin}`;
  return undefined;
}

export async function startRefusingServer(): Promise<RefusingServer> {
  const bin = binDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'memex-standby-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  writeFileSync(join(data, 'standby.signal'), '');
  if (asRoot) execFileSync('chown', ['postgres', join(data, 'standby.signal')]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c hot_standby=off -c fsync=off`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  return {
    port,
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function binDir(): string | undefined {
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
