import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { copyBaseline } from './copy-baseline';
import { EVENTS_PER_BATCH, SESSIONS, ingestBatch } from '../support/ingest-load';
import { fmt, summarize } from '../support/stats';
import { startAllInOne, startApp, startEmbedded } from '../support/server-process';

/**
 * Ingest throughput in all-in-one mode: 100-event batches of ~1 KB events posted with
 * concurrency, as many hook clients at once would. Bodies are built before the clock starts
 * so the figure is the server's, not the load generator's JSON encoding.
 */
const BATCHES = Number(process.env.BENCH_BATCHES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = 100;

function body(batch: number): string {
  return JSON.stringify(ingestBatch(batch));
}

/** CPU time (user and system) a process has used, in ms, from /proc (Linux's 100 Hz ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function post(agent: Agent, url: URL, apiKey: string, payload: string): Promise<{ status: number; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function run(
  agent: Agent,
  url: URL,
  apiKey: string,
  bodies: string[],
): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const payload = bodies[next++]!;
        const { status, ms } = await post(agent, url, apiKey, payload);
        if (status !== 202) errors += 1;
        latencies.push(ms);
      }
    }),
  );
  return { latencies, errors, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const throughput: Record<string, number> = {};

async function measure(mode: 'ingest-api' | 'all-in-one' | 'embedded'): Promise<void> {
  const server =
    mode === 'ingest-api'
      ? await startApp('ingest', 'ingest-api')
      : mode === 'embedded'
        ? await startEmbedded()
        : await startAllInOne('ingest');
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const url = new URL('/api/v2/events', server.url);
    const warmup = Array.from({ length: WARMUP }, (_, i) => body(BATCHES + i));
    await run(agent, url, server.apiKey, warmup);

    const bodies = Array.from({ length: BATCHES }, (_, i) => body(i));
    const bytes = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0);
    // PostgreSQL's own bulk load of the same rows into a copy of the table, in the same run,
    // before the posting starts: the worker enriching what is posted would compete with it after.
    const copy = mode === 'embedded' ? undefined : await copyBaseline(server.databaseUrl, bodies);
    const cpuBefore = cpuMs(server.child.pid!);
    const { latencies, errors, seconds } = await run(agent, url, server.apiKey, bodies);
    const cpuUsPerEvent = ((cpuMs(server.child.pid!) - cpuBefore) * 1000) / (BATCHES * EVENTS_PER_BATCH);
    const events = BATCHES * EVENTS_PER_BATCH;
    const { p50, p99, max } = summarize(latencies);

    const rss = server.peakRssMb();
    const stored = await server.count('raw_events');
    throughput[mode] = events / seconds;

    console.log(
      mode === 'ingest-api'
        ? 'bench:ingest — the ingest-api process alone, real PostgreSQL and Redis'
        : mode === 'embedded'
          ? 'bench:ingest — embedded mode (npm start with nothing but Node: PGlite, queues in process), enriching the same load'
          : 'bench:ingest — all-in-one process in server mode: ingest while the enrichment worker enriches the same load',
    );
    if (mode === 'embedded')
      console.log(
        `  start to ready on a fresh home (migrations included): ${fmt(server.startMs / 1000, 1)} s (goal ≤ 10 s)`,
      );
    console.log(
      `  batches: ${fmt(BATCHES)} × ${EVENTS_PER_BATCH} events (~1 KB each), concurrency ${CONCURRENCY}, ${SESSIONS} sessions`,
    );
    console.log(`  payload: ${fmt(bytes / 1024 / 1024)} MB in ${fmt(seconds, 2)} s`);
    console.log(
      `  throughput: ${fmt(events / seconds, 0)} events/s accepted (goal ≥ ${mode === 'embedded' ? '5,000' : '20,000'})`,
    );
    console.log(`  batch latency: p50 ${fmt(p50, 2)} ms, p99 ${fmt(p99, 2)} ms, max ${fmt(max, 2)} ms`);
    console.log(
      `  non-202 answers: ${errors}; events stored: ${fmt(stored)} of ${fmt(events + WARMUP * EVENTS_PER_BATCH)}`,
    );
    console.log(`  server CPU: ${fmt(cpuUsPerEvent, 1)} µs per event; peak RSS: ${fmt(rss, 0)} MB`);
    if (copy) {
      console.log(
        `  PostgreSQL COPY of the same ${fmt(copy.rows)} rows (same indexes, no trigger): ${fmt(copy.rowsPerSecond, 0)} rows/s; ingest ÷ COPY ${fmt(events / seconds / copy.rowsPerSecond, 2)} × (goal ≥ 0.35 ×)`,
      );
    }
    if (mode === 'embedded' && throughput['all-in-one']) {
      console.log(
        `  embedded ÷ server mode (all-in-one, same run): ${fmt(throughput.embedded! / throughput['all-in-one']!, 2)} ×`,
      );
    }
    agent.destroy();
    if (errors > 0 || stored !== events + WARMUP * EVENTS_PER_BATCH) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  // BENCH_INGEST_PART=embedded runs embedded mode alone (no ratio to server mode then).
  if (process.env.BENCH_INGEST_PART !== 'embedded') {
    await measure('ingest-api');
    await measure('all-in-one');
  }
  await measure('embedded');
}

void main();
