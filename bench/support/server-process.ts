import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { sql, type Kysely } from 'kysely';
import { ProjectRepository, createEmbeddedDatabase, type DB } from '@memex/db';
import { deleteQueuePrefix } from '@memex/queue';
import { dropDatabaseOn, migratedDatabase, migratedEmbeddedDatabase } from './databases';
import { freePort } from './free-port';

export { freePort };

const ROOT = join(__dirname, '..', '..', '..');

/** Where a benchmarked process keeps its data: PostgreSQL and Redis, or embedded (PGlite, queues in process). */
export type BenchMode = 'server' | 'embedded';

export interface BenchServer {
  url: string;
  apiKey: string;
  mode: BenchMode;
  /** Server mode's database ('' in embedded mode). */
  databaseUrl: string;
  /** Milliseconds from spawning the process to its banner (embedded: on a fresh home, migrations included). */
  startMs: number;
  /** Rows of a table; in embedded mode the process is stopped first (its database is in it). */
  count(table: string): Promise<number>;
  queuePrefix: string;
  child: ChildProcess;
  peakRssMb(): number;
  stop(): Promise<void>;
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

/** Node options every bench passes to the processes it starts: `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`. */
export function benchNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

/** An app's compiled entry point as its own process, on the run's database and queue prefix. */
export function spawnApp(
  entry: string,
  run: { name: string; databaseUrl: string },
  port: number,
  env: Record<string, string>,
  stdout: 'pipe' | 'ignore',
): ChildProcess {
  const nodeArgs = benchNodeArgs();
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

async function countOn(databaseUrl: string, table: string): Promise<number> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    return Number((await pg.query(`select count(*) from "${table.replace(/"/g, '""')}"`)).rows[0].count);
  } finally {
    await pg.end();
  }
}

/** RSS and teardown of a benchmarked process: stop it, drop its database, purge its queue keys. */
function handle(child: ChildProcess, serverUrl: string, name: string) {
  return {
    peakRssMb: () => peakRss(child),
    async stop(): Promise<void> {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await dropDatabaseOn(serverUrl, name);
      await purgePrefix(name);
    },
  };
}

/**
 * The all-in-one process in embedded mode on a fresh home, as `npm start` runs with nothing
 * but Node; `seed` fills the home's database (with a project made for the run) before it starts.
 */
export async function startEmbedded(
  seed?: (db: Kysely<DB>, projectId: string) => Promise<void>,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const home = mkdtempSync(join(tmpdir(), 'memex-bench-home-'));
  let seededKey: string | undefined;
  if (seed) {
    const db = await migratedEmbeddedDatabase(join(home, 'pgdata'));
    const { apiKey, projectId } = await new ProjectRepository(db).createWithKey('bench');
    await seed(db, projectId);
    await db.destroy();
    seededKey = apiKey;
  }
  const port = await freePort();
  const nodeArgs = benchNodeArgs();
  const { DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'dist/apps/memex/src/main.js')], {
    env: {
      ...inherited,
      MEMEX_MODE: 'embedded',
      MEMEX_HOME: home,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await bannerOf(child, 'Memex is running');
  const startMs = performance.now() - started;
  const apiKey =
    seededKey ?? (JSON.parse(readFileSync(join(home, 'local-project.json'), 'utf8')) as { apiKey: string }).apiKey;
  const stopChild = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    mode: 'embedded',
    databaseUrl: '',
    startMs,
    queuePrefix: '',
    child,
    peakRssMb: () => peakRss(child),
    async count(table: string): Promise<number> {
      await stopChild();
      const db = await createEmbeddedDatabase(join(home, 'pgdata'));
      try {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
        return rows[0]?.n ?? 0;
      } finally {
        await db.destroy();
      }
    },
    async stop(): Promise<void> {
      await stopChild();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Resolves once the process has printed `banner` (its stdout piped), rejects if it exits first. */
function bannerOf(child: ChildProcess, banner: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(banner)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before it was ready`)));
  });
}

function peakRss(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

/** Starts the all-in-one process (`npm start`'s entry) on a fresh database, as a user would run it. */
export async function startAllInOne(
  label: string,
  env: Record<string, string> = {},
  entry = 'dist/apps/memex/src/main.js',
): Promise<BenchServer> {
  const run = benchRun(label);
  const started = performance.now();
  const stateDir = mkdtempSync(join(tmpdir(), 'memex-bench-'));
  const port = await freePort();
  const child = spawnApp(entry, run, port, { MEMEX_LOCAL_STATE_DIR: stateDir, ...env }, 'pipe');
  await bannerOf(child, 'local API key');
  const startMs = performance.now() - started;
  const { apiKey } = JSON.parse(readFileSync(join(stateDir, 'local-project.json'), 'utf8')) as { apiKey: string };
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    mode: 'server',
    startMs,
    count: (table) => countOn(run.databaseUrl, table),
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
  const db = await migratedDatabase(run.databaseUrl, 2);
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
  const started = performance.now();
  for (let i = 0; i < 200; i += 1) {
    if ((await fetch(`${url}/health/ready`).catch(() => undefined))?.ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    apiKey,
    mode: 'server',
    startMs: performance.now() - started,
    count: (table) => countOn(run.databaseUrl, table),
    databaseUrl: run.databaseUrl,
    queuePrefix: run.name,
    child,
    ...handle(child, run.serverUrl, run.name),
  };
}
