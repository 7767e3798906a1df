import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

const ROOT = join(__dirname, '..', '..', '..');

export interface BenchServer {
  url: string;
  apiKey: string;
  databaseUrl: string;
  child: ChildProcess;
  peakRssMb(): number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts the all-in-one process (`npm start`'s entry) on a fresh database, as a user would run it. */
export async function startAllInOne(label: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `memex_bench_${label}_${Date.now()}`;
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${name}`;
  const stateDir = mkdtempSync(join(tmpdir(), 'memex-bench-'));
  const port = await freePort();
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'dist/apps/memex/src/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: name,
      MEMEX_LOCAL_STATE_DIR: stateDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
    databaseUrl: dbUrl.toString(),
    child,
    peakRssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      return kb / 1024;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
