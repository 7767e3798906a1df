import { fmt, summarize } from '../support/stats';
import { startApp } from '../support/server-process';
import { seedHygiene } from './seed';

interface Run {
  runId: string;
  status: string;
  itemsScanned: number;
  counts: Record<string, number>;
  startedAt: string;
  finishedAt: string;
}

async function call<T>(url: string, key: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Starts a run and waits for it; returns the run and the time from request to completion. */
async function pass(base: string, key: string, mode: 'dry-run' | 'apply'): Promise<{ run: Run; wallMs: number }> {
  const started = performance.now();
  const { runId } = await call<{ runId: string }>(`${base}/api/v2/hygiene/runs`, key, { mode });
  for (;;) {
    const run = await call<Run>(`${base}/api/v2/hygiene/runs/${runId}?limit=1`, key);
    if (run.status === 'failed') throw new Error(`run failed: ${JSON.stringify(run)}`);
    if (run.status === 'completed') return { run, wallMs: performance.now() - started };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const passMs = (run: Run) => Date.parse(run.finishedAt) - Date.parse(run.startedAt);
const counted = (run: Run) =>
  Object.entries(run.counts)
    .filter(([, n]) => n > 0)
    .map(([rule, n]) => `${rule} ${fmt(n)}`)
    .join(', ');

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_ITEMS ?? 50_000);
  const seedStarted = performance.now();
  const server = await startApp('hygiene', 'memex', (db, projectId) => seedHygiene(db, projectId, count), {
    HYGIENE_INTERVAL_MS: '0',
  });
  const seededIn = performance.now() - seedStarted;
  try {
    const base = server.url;
    const dry: number[] = [];
    const dryWall: number[] = [];
    let last: Run | undefined;
    for (let i = 0; i < 5; i += 1) {
      const { run, wallMs } = await pass(base, server.apiKey, 'dry-run');
      dry.push(passMs(run));
      dryWall.push(wallMs);
      last = run;
    }
    const apply = await pass(base, server.apiKey, 'apply');
    const after = await pass(base, server.apiKey, 'apply');
    const d = summarize(dry);
    console.log(
      `bench:hygiene — ${fmt(count)} items in one project, all-in-one process (seeded in ${fmt(seededIn / 1000, 1)} s)`,
    );
    console.log(
      `  dry-run pass (read, rules, record): p50 ${fmt(d.p50, 0)} ms, max ${fmt(d.max, 0)} ms over 5 runs; request → completed p50 ${fmt(summarize(dryWall).p50, 0)} ms (goal < 10,000 ms)`,
    );
    console.log(`    scanned ${fmt(last!.itemsScanned)} items; found: ${counted(last!)}`);
    console.log(`  first apply pass: ${fmt(passMs(apply.run), 0)} ms (request → completed ${fmt(apply.wallMs, 0)} ms)`);
    console.log(`    changed or proposed: ${counted(apply.run)}`);
    console.log(
      `  next apply pass: ${fmt(passMs(after.run), 0)} ms; ${counted(after.run) || 'nothing left to do'} (mostly pending proposals found again)`,
    );
    console.log(`  server peak RSS: ${fmt(server.peakRssMb(), 0)} MB`);
  } finally {
    await server.stop();
  }
}

void main();
