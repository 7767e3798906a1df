import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Kysely } from 'kysely';
import { ProjectRepository, createDatabase, ensureDatabaseExists, migrateToLatest, type DB } from '@memex/db';
import { deleteQueuePrefix } from '@memex/queue';

const ROOT = join(__dirname, '..', '..', '..');

export interface BenchServer {
  url: string;
  apiKey: string;
  databaseUrl: string;
  queuePrefix: string;
  child: ChildProcess;
  peakRssMb(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Deletes a bench run's queue keys from Redis. */
export function purgePrefix(prefix: string): Promise<void> {
  return deleteQueuePrefix(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
}

/** Names of a bench run: its database (on the server of DATABASE_URL) and its queue prefix. */
function benchRun(label: string): { serverUrl: string; name: string; databaseUrl: string } {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `memex_bench_${label}_${Date.now()}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { serverUrl, name, databaseUrl: url.toString() };
}

/** An app's compiled entry point as its own process, on the run's database and queue prefix. */
function spawnApp(
  entry: string,
  run: { name: string; databaseUrl: string },
  port: number,
  env: Record<string, string>,
  stdout: 'pipe' | 'ignore',
): ChildProcess {
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  return spawn(process.execPath, [...nodeArgs, join(ROOT, entry)], {
    env: {
      ...process.env,
      DATABASE_URL: run.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: run.name,
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

/** RSS and teardown of a benchmarked process: stop it, drop its database, purge its queue keys. */
function handle(child: ChildProcess, serverUrl: string, name: string) {
  return {
    peakRssMb(): number {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
    },
    async stop(): Promise<void> {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
      await purgePrefix(name);
    },
  };
}

/** Starts the all-in-one process (`npm start`'s entry) on a fresh database, as a user would run it. */
export async function startAllInOne(
  label: string,
  env: Record<string, string> = {},
  entry = 'dist/apps/memex/src/main.js',
): Promise<BenchServer> {
  const run = benchRun(label);
  const stateDir = mkdtempSync(join(tmpdir(), 'memex-bench-'));
  const port = await freePort();
  const child = spawnApp(entry, run, port, { MEMEX_LOCAL_STATE_DIR: stateDir, ...env }, 'pipe');
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('local API key')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before it was ready`)));
  });
  const { apiKey } = JSON.parse(readFileSync(join(stateDir, 'local-project.json'), 'utf8')) as { apiKey: string };
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    databaseUrl: run.databaseUrl,
    queuePrefix: run.name,
    child,
    ...handle(child, run.serverUrl, run.name),
  };
}

/**
 * One app's process alone (the production shape), on a fresh database with a project made
 * for the run; `seed` fills the database before the app starts.
 */
export async function startApp(
  label: string,
  app: 'ingest-api' | 'brain-api' | 'memex',
  seed?: (db: Kysely<DB>, projectId: string) => Promise<void>,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const run = benchRun(label);
  await ensureDatabaseExists(run.databaseUrl);
  const db = createDatabase({ url: run.databaseUrl, poolSize: 2 });
  await migrateToLatest(db, run.databaseUrl);
  const { apiKey, projectId } = await new ProjectRepository(db).createWithKey('bench');
  await seed?.(db, projectId);
  await db.destroy();
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), 'memex-bench-'));
  const child = spawnApp(
    `dist/apps/${app}/src/main.js`,
    run,
    port,
    { MEMEX_LOCAL_STATE_DIR: stateDir, ...env },
    'ignore',
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i += 1) {
    if ((await fetch(`${url}/health/ready`).catch(() => undefined))?.ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    apiKey,
    databaseUrl: run.databaseUrl,
    queuePrefix: run.name,
    child,
    ...handle(child, run.serverUrl, run.name),
  };
}
