import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { ProjectRepository, RawEventRepository, createPool } from '@memex/db';
import { JOBS, QUEUES } from '@memex/queue';
import { readWindow, type EngineEvent } from '@memex/enrichment';
import { transcriptToEvents } from '@memex/transcript';
import { dropDatabaseOn, migratedDatabase } from '../support/databases';
import { fmt, summarize } from '../support/stats';
import { benchNodeArgs, freePort, purgePrefix, startAllInOne } from '../support/server-process';
import { modelSpend } from './model-spend';

const ROOT = join(__dirname, '..', '..', '..');
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 12);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Part A: one worker process (local engine, default concurrency) drains sessions made of a
 * realistic Claude Code session, repeated with fresh ids. Events are in Postgres before the
 * clock starts; the clock stops when every session's cursor has reached its last event.
 */
async function throughput(): Promise<void> {
  const name = `memex_bench_enrich_${Date.now()}`;
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const db = await migratedDatabase(url.toString(), 4);
  const pool = createPool({ url: url.toString(), poolSize: 4 });
  const { projectId } = await new ProjectRepository(db).createWithKey('bench');
  const events = new RawEventRepository(pool);
  const template = transcriptToEvents(
    readFileSync(join(ROOT, 'test/fixtures/claude-code/session-discount-fix.jsonl'), 'utf8'),
  );
  const sessionIds: string[] = [];
  for (let s = 0; s < SESSIONS; s += 1) {
    const batch = Array.from({ length: REPEATS }, (_, r) =>
      template.map((e) => ({ ...e, eventId: `s${s}-r${r}-${e.eventId}` })),
    ).flat();
    const stored = await events.storeBatch(projectId, { sessionId: `bench-${s}`, events: batch }, new Date());
    sessionIds.push(stored.sessionId!);
  }
  const total = SESSIONS * REPEATS * template.length;

  const port = await freePort();
  const worker = spawn(process.execPath, [...benchNodeArgs(), join(ROOT, 'dist/apps/enrichment-worker/src/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      QUEUE_PREFIX: name,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const connection = new IORedis(REDIS, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUES.enrichment, { connection, prefix: name });
  try {
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.ok === true,
      30_000,
    );
    const started = process.hrtime.bigint();
    await queue.addBulk(
      sessionIds.map((sessionId) => ({
        name: JOBS.enrichSession.name,
        data: { projectId, sessionId },
        opts: JOBS.enrichSession.options,
      })),
    );
    await waitFor(async () => {
      const { rows } = await pool.query(
        'select count(*)::int as n from sessions where enrichment_cursor < last_event_seq',
      );
      return rows[0].n === 0;
    }, 600_000);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { rows } = await pool.query('select count(*)::int as n from memory_items');
    console.log('bench:enrichment — part A: one worker process, local engine, default concurrency');
    console.log(
      `  ${fmt(SESSIONS)} sessions × ${fmt(REPEATS * template.length)} events (a Claude Code session repeated) = ${fmt(total)} events`,
    );
    console.log(`  drained in ${fmt(seconds, 2)} s: ${fmt(total / seconds, 0)} events/s per worker (goal ≥ 2,000)`);
    console.log(`  items: ${fmt(rows[0].n)} (repeats of one session reinforce instead of adding rows)`);
  } finally {
    worker.kill('SIGTERM');
    await queue.close();
    connection.disconnect();
    await pool.end();
    await db.destroy();
    await dropDatabaseOn(SERVER, name);
    await purgePrefix(name);
  }
}

/**
 * Part B: the all-in-one process under steady load (sessions posting a batch every 500 ms).
 * Each batch carries one [MEMORY: …] tag with a unique marker; its lag is the time from the
 * POST to the item row's creation.
 */
async function lag(debounceMs: string): Promise<void> {
  // Every batch's item must be written to time it: no session cap (a session keeps 15 by default).
  const server = await startAllInOne('lag', { ENRICHMENT_DEBOUNCE_MS: debounceMs, ENRICHMENT_SESSION_ITEMS: '0' });
  const pg = new Client({ connectionString: server.databaseUrl });
  await pg.connect();
  try {
    const sent = new Map<string, number>();
    const sessions = 10;
    const deadline = Date.now() + LOAD_SECONDS * 1000;
    let batch = 0;
    await Promise.all(
      Array.from({ length: sessions }, async (_, s) => {
        while (Date.now() < deadline) {
          batch += 1;
          const marker = `mark${batch}x${s}`;
          const events = Array.from({ length: 9 }, (_, i) => ({
            eventId: `${marker}-${i}`,
            type: i % 2 ? 'tool_call' : 'tool_result',
            timestamp: new Date().toISOString(),
            content: `Read src/module${i}.ts`,
            metadata: { tool: 'Read' },
          }));
          events.push({
            eventId: `${marker}-tag`,
            type: 'response',
            timestamp: new Date().toISOString(),
            content: `Done. [MEMORY: implementation: Benchmark item ${marker} recorded for lag measurement]`,
            metadata: { tool: 'none' },
          });
          sent.set(marker, Date.now());
          const res = await fetch(`${server.url}/api/v2/events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ sessionId: `lag-${s}`, events }),
          });
          if (res.status !== 202) throw new Error(`ingest answered ${res.status}`);
          await new Promise((r) => setTimeout(r, 500));
        }
      }),
    );
    await waitFor(async () => {
      const { rows } = await pg.query('select count(*)::int as n from memory_items');
      return rows[0].n >= sent.size;
    }, 120_000);
    const { rows } = await pg.query<{ title: string; created: Date }>(
      'select title, created_at as created from memory_items',
    );
    const lags = rows.flatMap((r) => {
      const marker = /(mark\d+x\d+)/.exec(r.title)?.[1];
      const at = marker ? sent.get(marker) : undefined;
      return at === undefined ? [] : [r.created.getTime() - at];
    });
    const { p50, p99, max } = summarize(lags);
    const events = sent.size * 10;
    console.log(`bench:enrichment — part B: all-in-one, ENRICHMENT_DEBOUNCE_MS=${debounceMs}, steady load`);
    console.log(
      `  ${fmt(sent.size)} batches (${fmt(events)} events, ${fmt(events / LOAD_SECONDS, 0)} events/s) from 10 sessions over ${LOAD_SECONDS} s`,
    );
    console.log(
      `  ingest-to-item lag: p50 ${fmt(p50, 0)} ms, p99 ${fmt(p99, 0)} ms, max ${fmt(max, 0)} ms (${fmt(lags.length)} items)`,
    );
  } finally {
    await pg.end();
    await server.stop();
  }
}

/**
 * Part C: the local engine on the largest hostile event contents (100 KB, the ingest limit).
 * Patterns that rescan text from each character make these take tens of seconds; the goal is
 * that none takes longer than an ordinary window.
 */
function hostile(): void {
  const inputs: Array<[string, string]> = [
    ['one 100 KB word', 'a'.repeat(100_000)],
    ['a 98 KB path-like run with no slash', `${'a.b-c@d'.repeat(14_000)}!`],
    ['a 100 KB hyphenated run', `${'a-'.repeat(50_000)}x`],
    [
      '12,000 nested list items',
      Array.from({ length: 12_000 }, (_, i) => `${'  '.repeat(i % 3)}- item ${i}`).join('\n'),
    ],
    ['100 KB of "hmm " before "no"', `${'hmm '.repeat(25_000)}no`],
    ['100 KB of "[" before a link\'s "](x"', `${'['.repeat(100_000)}](x`],
    ['100 KB of backticks before a link', `${'`'.repeat(99_990)}[a](b.md)`],
  ];
  console.log('bench:enrichment — part C: local engine on hostile 100 KB messages (goal < 1,000 ms each)');
  for (const [name, text] of inputs) {
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    const events: EngineEvent[] = [
      {
        seq: 1,
        eventId: 'p1',
        type: 'prompt',
        timestamp: at(1),
        content: 'why does the importer fail?',
        metadata: null,
      },
      { seq: 2, eventId: 'r1', type: 'response', timestamp: at(2), content: text, metadata: null },
      { seq: 3, eventId: 'p2', type: 'prompt', timestamp: at(3), content: text, metadata: null },
    ];
    const started = performance.now();
    readWindow(events);
    console.log(`  ${name}: ${fmt(performance.now() - started, 0)} ms`);
  }
}

/** BENCH_ENRICHMENT_PART runs one part alone: `throughput` (A) or `spend` (D); unset, all of them. */
const PARTS = ['throughput', 'spend'] as const;

async function main(): Promise<void> {
  const part = process.env.BENCH_ENRICHMENT_PART;
  if (part !== undefined && !(PARTS as readonly string[]).includes(part)) {
    throw new Error(`BENCH_ENRICHMENT_PART is one of ${PARTS.join(', ')}, or unset for every part; got "${part}"`);
  }
  if (part === undefined) hostile();
  if (part === undefined || part === 'throughput') await throughput();
  if (part === undefined) {
    await lag('2000');
    await lag('200');
  }
  if (part === undefined || part === 'spend') {
    await modelSpend('clean');
    await modelSpend('kills');
  }
}

void main();
