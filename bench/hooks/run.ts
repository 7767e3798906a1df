import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seed } from '../brain/seed';
import { fmt, summarize } from '../support/stats';
import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { freePort, startApp, startEmbedded, type BenchMode } from '../support/server-process';

/**
 * What a Claude Code user pays per hook: wall time of `bin/memex hook <Event>` as Claude Code
 * runs it (a new Node process, payload on stdin), against a project of 2,000 items, and with
 * the server refusing connections or never answering. Goal: never over 2 s.
 */

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'memex');
const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 20);
const FIXTURE = readFileSync(join(ROOT, 'test/fixtures/claude-code/session-discount-fix.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim());

/** A transcript of `copies` times the fixture, each copy with its own line uuids. */
function transcriptLines(copies: number, salt: string): string[] {
  return Array.from({ length: copies }, (_, c) =>
    FIXTURE.map((line) => line.replaceAll('0b5f', `${salt}${c.toString(16).padStart(2, '0')}`.slice(-4))),
  ).flat();
}

function hook(event: string, payload: object, env: Record<string, string>): Promise<{ ms: number; code: number }> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, 'hook', event], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end(JSON.stringify({ hook_event_name: event, ...payload }));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code: code ?? -1 })),
  );
}

async function scenario(
  name: string,
  run: (i: number) => Promise<{ ms: number; code: number }>,
): Promise<{ name: string; p50: number; p99: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { ms, code } = await run(i);
    if (code !== 0) throw new Error(`${name}: exit code ${code}`);
    times.push(ms);
  }
  return { name, ...summarize(times.sort((a, b) => a - b)) };
}

async function measure(mode: BenchMode): Promise<number> {
  const fill = (db: Kysely<DB>, projectId: string) => seed(db, projectId, 2000);
  const server = mode === 'embedded' ? await startEmbedded(fill) : await startApp('hooks', 'memex', fill);
  const work = mkdtempSync(join(tmpdir(), 'memex-bench-hooks-'));
  const up = (state: string) => ({
    MEMEX_URL: server.url,
    MEMEX_API_KEY: server.apiKey,
    MEMEX_HOOK_STATE_DIR: join(work, state),
    MEMEX_LOCAL_STATE_DIR: join(work, 'none'),
  });
  const hung = createServer((socket: Socket) => socket.on('error', () => undefined));
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const hungUrl = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
  const refusedUrl = `http://127.0.0.1:${await freePort()}`;

  const session = (i: number, label: string, copies: number) => {
    const path = join(work, `${label}-${i}.jsonl`);
    writeFileSync(path, `${transcriptLines(copies, (i + 16).toString(16)).join('\n')}\n`);
    return { session_id: `${label}-${i}`, transcript_path: path, cwd: '/home/dev/projects/shop-api' };
  };

  try {
    // One hook first: the disk cache warm, as on a machine Claude Code has run on.
    await hook('Stop', { session_id: 'warm' }, up('warm'));
    const rows = [];
    rows.push(
      await scenario('SessionStart, 240-line transcript + brain (2,000 tokens)', (i) =>
        hook('SessionStart', { ...session(i, 'start', 10), source: 'startup' }, up('a')),
      ),
    );
    rows.push(
      await scenario('UserPromptSubmit + context pack (600 tokens)', (i) =>
        hook(
          'UserPromptSubmit',
          { ...session(i, 'start', 10), prompt: 'why does the cart discount crash on an empty rule?' },
          up('a'),
        ),
      ),
    );
    const long = session(0, 'grow', 1);
    rows.push(
      await scenario('PostToolUse, 24 new lines each', (i) => {
        appendFileSync(long.transcript_path, `${transcriptLines(1, (i + 64).toString(16)).join('\n')}\n`);
        return hook('PostToolUse', long, up('b'));
      }),
    );
    rows.push(await scenario('Stop (completes the session)', () => hook('Stop', long, up('b'))));
    rows.push(
      await scenario('SessionStart, server refusing connections', (i) =>
        hook('SessionStart', session(i, 'down', 10), { ...up('c'), MEMEX_URL: refusedUrl }),
      ),
    );
    rows.push(
      await scenario('SessionStart, server never answering', (i) =>
        hook('SessionStart', session(i, 'hung', 1), { ...up('d'), MEMEX_URL: hungUrl }),
      ),
    );

    console.log(
      `\nHook wall time against ${mode === 'embedded' ? 'embedded mode (npm start with nothing but Node)' : 'server mode'}, ${RUNS} runs each (new Node process per run, as Claude Code runs hooks):`,
    );
    console.log('scenario'.padEnd(62), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'max ms'.padStart(8));
    for (const r of rows) {
      console.log(r.name.padEnd(62), fmt(r.p50, 0).padStart(8), fmt(r.p99, 0).padStart(8), fmt(r.max, 0).padStart(8));
    }
    const worst = Math.max(...rows.map((r) => r.max));
    console.log(`\nslowest hook: ${fmt(worst, 0)} ms (goal: never over 2,000 ms) ${worst < 2000 ? 'OK' : 'MISSED'}`);
    return rows[0]!.p50;
  } finally {
    hung.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const server = await measure('server');
  const embedded = await measure('embedded');
  console.log(
    `\nSessionStart p50, embedded ÷ server mode (same run): ${fmt(embedded / server, 2)} × (goal: as fast, ≤ 1 × give or take noise)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
