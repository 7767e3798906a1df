import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { freePort } from '../../bench/support/free-port';

export { freePort };

export const DIST = join(__dirname, '..', '..', 'dist');

export interface RunningProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a compiled entry point (built by the global setup) as its own process. */
export function runEntry(entry: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [join(DIST, entry)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, ...output, exited };
}

/** What a child process writes, as it arrives. */
function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return { stdout: () => out, stderr: () => err };
}

export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * The all-in-one process (`npm start`'s entry) on a free port with `env`, once it answers ready:
 * it and its URL. One that never gets ready is killed, and what it printed on stderr is the error.
 */
export async function runAllInOne(env: Record<string, string>): Promise<{ run: RunningProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const run = runEntry('apps/memex/src/main.js', { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env });
  try {
    await waitForHttp(`${url}/health/ready`, 30_000);
  } catch (error) {
    run.child.kill('SIGKILL');
    await run.exited;
    throw new Error(`${(error as Error).message}; its stderr:\n${run.stderr()}`);
  }
  return { run, url };
}

export const MEMEX_BIN = join(__dirname, '..', '..', 'bin', 'memex');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

/** Runs `bin/memex` with `input` on stdin and only the environment given (plus PATH and HOME). */
export function runCli(args: string[], env: Record<string, string>, input = ''): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [MEMEX_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = collect(child);
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ code, stdout: output.stdout(), stderr: output.stderr(), ms: Date.now() - started }),
    ),
  );
}
