import { Agent, request } from 'node:http';
import { fmt, summarize } from '../support/stats';
import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { startApp, startEmbedded, type BenchMode } from '../support/server-process';
import { seed } from './seed';

function get(
  agent: Agent,
  url: string,
  key: string,
  etag?: string,
): Promise<{ status: number; ms: number; etag: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent, headers: { authorization: `Bearer ${key}`, ...(etag ? { 'if-none-match': etag } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            etag: String(res.headers.etag ?? ''),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** 304 revalidations per second, by mode, at 5,000 items: embedded mode's goal is half server mode's. */
const revalidations: Partial<Record<BenchMode, number>> = {};

async function measure(count: number, mode: BenchMode = 'server'): Promise<void> {
  const fill = (db: Kysely<DB>, projectId: string) => seed(db, projectId, count);
  const server = mode === 'embedded' ? await startEmbedded(fill) : await startApp(`brain${count}`, 'brain-api', fill);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const url = `${server.url}/api/v2/brain`;
  try {
    // Cold: each request asks for a budget not asked before, so it is a cache miss by
    // construction: the items are read and the brain assembled, as after any item change.
    const cold: number[] = [];
    for (let i = 0; i < (count > 10_000 ? 15 : 40); i += 1) {
      const res = await get(agent, `${url}?tokenBudget=${6000 + i + 1}`, server.apiKey);
      if (res.status !== 200) throw new Error(`brain answered ${res.status}`);
      cold.push(res.ms);
    }
    const hit: number[] = [];
    let etag = '';
    for (let i = 0; i < 300; i += 1) {
      const res = await get(agent, url, server.apiKey);
      hit.push(res.ms);
      etag = res.etag;
    }
    const total = 20_000;
    let done = 0;
    let notModified = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (done < total) {
          done += 1;
          if ((await get(agent, url, server.apiKey, etag)).status === 304) notModified += 1;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const c = summarize(cold);
    const h = summarize(hit);
    console.log(
      mode === 'embedded'
        ? `bench:brain — ${fmt(count)} items, embedded mode (npm start with nothing but Node), tokenBudget 6000`
        : `bench:brain — ${fmt(count)} items, brain-api process alone (server mode), tokenBudget 6000`,
    );
    console.log(
      `  cold assembly incl. database read: p50 ${fmt(c.p50, 1)} ms, p99 ${fmt(c.p99, 1)} ms (goal p50 < ${count > 10_000 ? 500 : 50} ms)`,
    );
    console.log(`  cache hit: p50 ${fmt(h.p50, 2)} ms, p99 ${fmt(h.p99, 2)} ms (goal p50 < 2 ms)`);
    console.log(
      `  304 revalidations: ${fmt(total / seconds, 0)} req/s, ${fmt(notModified)} of ${fmt(total)} answered 304 (goal ≥ 5,000 req/s)`,
    );
    console.log(`  server peak RSS: ${fmt(server.peakRssMb(), 0)} MB`);
    if (count === 5_000) revalidations[mode] = total / seconds;
    if (mode === 'embedded' && revalidations.server) {
      console.log(
        `  embedded ÷ server mode 304 revalidations (same run): ${fmt(revalidations.embedded! / revalidations.server, 2)} × (goal ≥ 0.5 ×)`,
      );
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

async function main(): Promise<void> {
  await measure(5_000);
  await measure(50_000);
  await measure(5_000, 'embedded');
}

void main();
