import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transcriptToEvents } from '@memex/transcript';
import { seed } from '../brain/seed';
import { fmt, summarize } from '../support/stats';
import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { freePort, startApp, startEmbedded, type BenchMode } from '../support/server-process';

/**
 * What a Claude Code user pays per hook: wall time of `bin/memex hook <Event>` as Claude Code
 * runs it (a new Node process, payload on stdin), against a project of 2,000 items, and with
 * the server refusing connections or never answering. Goal: never over 2 s.
 *
 * Beside every hook run, the same loop runs `node -e 0`: the machine is shared and its load
 * moves, so a hook's time is judged by its ratio to an empty Node process measured at the same
 * moments, not by milliseconds alone.
 */

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'memex');
const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 20);
const FIXTURE = readFileSync(join(ROOT, 'test/fixtures/claude-code/session-discount-fix.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim());
/** Issue 30's targets for SessionStart. */
const GOAL = { ratio: 2.5, p99Ms: 300, hungMs: 2000 };

/** A transcript of `copies` times the fixture, each copy with its own line uuids. */
function transcriptLines(copies: number, salt: string): string[] {
  return Array.from({ length: copies }, (_, c) =>
    FIXTURE.map((line) => line.replaceAll('0b5f', `${salt}${c.toString(16).padStart(2, '0')}`.slice(-4))),
  ).flat();
}

interface Run {
  ms: number;
  code: number;
  stdout: string;
}

function timed(args: string[], env: Record<string, string>, stdin: string): Promise<Run> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  // A process that reads no stdin (node -e 0, --help) may be gone before it is written.
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code: code ?? -1, stdout }),
    ),
  );
}

function hook(event: string, payload: object, env: Record<string, string>): Promise<Run> {
  return timed([BIN, 'hook', event], env, JSON.stringify({ hook_event_name: event, ...payload }));
}

interface Row {
  name: string;
  p50: number;
  p99: number;
  max: number;
  /** Runs whose stdout held the brain (SessionStart rows). */
  brains: number;
}

async function measure(mode: BenchMode): Promise<Row[]> {
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
  const empty: number[] = [];

  /**
   * `runs` of one scenario, each after a `node -e 0` whose time goes to the run's baseline, and,
   * when given, after `settle` has seen the run's work done: a hook that hands its work to a
   * process of its own must not have that process share the cores with the next run.
   */
  const scenario = async (
    name: string,
    run: (i: number) => Promise<Run>,
    settle?: (i: number) => Promise<void>,
  ): Promise<Row> => {
    const times: number[] = [];
    let brains = 0;
    for (let i = 0; i < RUNS; i++) {
      empty.push((await timed(['-e', '0'], {}, '')).ms);
      const { ms, code, stdout } = await run(i);
      if (code !== 0) throw new Error(`${name}: exit code ${code}`);
      times.push(ms);
      if (stdout.includes('# Project brain')) brains += 1;
      await settle?.(i);
    }
    return { name, brains, ...summarize(times) };
  };

  /** Milliseconds from a hook's return until the server holds all `expected` events of the session. */
  const stored: number[] = [];
  const waitStored = async (sessionId: string, expected: number): Promise<void> => {
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      const res = await fetch(`${server.url}/api/v2/sessions?limit=100`, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      });
      const { sessions } = (await res.json()) as { sessions: { externalId: string; eventCount: number }[] };
      if ((sessions.find((x) => x.externalId === sessionId)?.eventCount ?? 0) >= expected) {
        stored.push(Date.now() - started);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const resumedEvents = transcriptToEvents(transcriptLines(10, '0').join('\n')).length;

  const session = (i: number, label: string, copies: number) => {
    const path = join(work, `${label}-${i}.jsonl`);
    writeFileSync(path, `${transcriptLines(copies, (i + 16).toString(16)).join('\n')}\n`);
    return { session_id: `${label}-${i}`, transcript_path: path, cwd: '/home/dev/projects/shop-api' };
  };
  /** A session Claude Code has just started: its transcript not written yet. */
  const fresh = (i: number, label: string) => ({
    session_id: `${label}-${i}`,
    transcript_path: join(work, `${label}-${i}.jsonl`),
    cwd: '/home/dev/projects/shop-api',
    source: 'startup',
  });

  try {
    // One hook first: the disk cache warm, as on a machine Claude Code has run on.
    await hook('Stop', { session_id: 'warm' }, up('warm'));
    const rows: Row[] = [];
    rows.push(await scenario('memex --help', () => timed([BIN, '--help'], up('help'), '')));
    rows.push(
      await scenario(
        'SessionStart, 240-line transcript + brain (2,000 tokens)',
        (i) => hook('SessionStart', { ...session(i, 'start', 10), source: 'resume' }, up('a')),
        (i) => waitStored(`start-${i}`, resumedEvents),
      ),
    );
    rows.push(
      await scenario('SessionStart, new session (no transcript yet) + brain', (i) =>
        hook('SessionStart', fresh(i, 'new'), up('a')),
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
      await scenario('SessionStart, server never answering, no brain cached', (i) =>
        hook('SessionStart', session(i, 'hung', 1), { ...up('d'), MEMEX_URL: hungUrl }),
      ),
    );
    // The brain this state directory last saw (state 'a' above) is on disk: a hung server still lets it be printed.
    rows.push(
      await scenario('SessionStart, server never answering, brain cached', (i) =>
        hook('SessionStart', fresh(i, 'hung-cached'), { ...up('a'), MEMEX_URL: hungUrl }),
      ),
    );

    const base = summarize(empty);
    console.log(
      `\nHook wall time against ${mode === 'embedded' ? 'embedded mode (npm start with nothing but Node)' : 'server mode'}, ${RUNS} runs each (new Node process per run, as Claude Code runs hooks), each run after a \`node -e 0\`:`,
    );
    console.log(
      'scenario'.padEnd(62),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'max ms'.padStart(8),
      '÷ node'.padStart(8),
      'brain'.padStart(7),
    );
    const line = (r: Omit<Row, 'brains'> & { brains?: number }, brains: boolean) =>
      console.log(
        r.name.padEnd(62),
        fmt(r.p50, 0).padStart(8),
        fmt(r.p99, 0).padStart(8),
        fmt(r.max, 0).padStart(8),
        `${fmt(r.p50 / base.p50, 2)} ×`.padStart(8),
        (brains ? `${r.brains}/${RUNS}` : '').padStart(7),
      );
    line({ name: `node -e 0 (${empty.length} runs, interleaved)`, ...base }, false);
    for (const r of rows) line(r, r.name.startsWith('SessionStart'));

    const start = rows[1]!;
    const hungCached = rows[rows.length - 1]!;
    const hooks = rows.filter((r) => r.name !== 'memex --help');
    const worst = Math.max(...hooks.map((r) => r.max));
    const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');
    console.log(
      `\nSessionStart (240-line transcript) p50 ÷ node -e 0 p50: ${fmt(start.p50 / base.p50, 2)} × (goal ≤ ${GOAL.ratio} ×) ${verdict(start.p50 / base.p50 <= GOAL.ratio)}`,
    );
    console.log(
      `SessionStart p99: ${fmt(start.p99, 0)} ms (goal < ${GOAL.p99Ms} ms on a quiet machine; node -e 0 p99 here ${fmt(base.p99, 0)} ms) ${verdict(start.p99 < GOAL.p99Ms)}`,
    );
    console.log(
      `SessionStart, server hung, brain cached: max ${fmt(hungCached.max, 0)} ms (goal < ${fmt(GOAL.hungMs, 0)} ms), cached brain printed ${hungCached.brains}/${RUNS} ${verdict(hungCached.max < GOAL.hungMs && hungCached.brains === RUNS)}`,
    );
    const handedOff = stored.length ? summarize(stored) : undefined;
    console.log(
      `SessionStart, 240-line transcript: its ${resumedEvents} events stored by the process it hands them to in ${stored.length}/${RUNS} runs${handedOff ? `, p50 ${fmt(handedOff.p50, 0)} ms and max ${fmt(handedOff.max, 0)} ms after the hook returned` : ''} ${verdict(stored.length === RUNS)}`,
    );
    console.log(`slowest hook: ${fmt(worst, 0)} ms (goal: never over 2,000 ms) ${verdict(worst < 2000)}`);
    return rows;
  } finally {
    hung.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const server = await measure('server');
  const embedded = await measure('embedded');
  console.log(
    `\nSessionStart p50, embedded ÷ server mode (same run): ${fmt(embedded[1]!.p50 / server[1]!.p50, 2)} × (goal: as fast, ≤ 1 × give or take noise)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
