import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, summarize } from '../support/stats';
import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { freePort, startApp, startEmbedded, type BenchMode } from '../support/server-process';
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

/** Revalidations per second from 32 concurrent keep-alive clients, and how many were answered 304. */
async function revalidate(
  url: string,
  key: string,
  etag: string,
  total: number,
): Promise<{ rate: number; notModified: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  let done = 0;
  let notModified = 0;
  const started = process.hrtime.bigint();
  try {
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (done < total) {
          done += 1;
          if ((await get(agent, url, key, etag)).status === 304) notModified += 1;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { rate: total / (Number(process.hrtime.bigint() - started) / 1e9), notModified };
}

/** CPU time (user and system) a process has used, in µs, from /proc (clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The server's CPU per request over `total` requests from 32 keep-alive clients. */
async function cpuPerRequest(pid: number, url: string, key: string, etag: string, total: number): Promise<number> {
  const before = cpuMicros(pid);
  await revalidate(url, key, etag, total);
  return (cpuMicros(pid) - before) / total;
}

/** A bare Fastify process answering the same 304 (bare-fastify.ts). */
async function startBareFastify(): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(__dirname, 'bare-fastify.js'), String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`bare Fastify exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/api/v2/brain`, pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

/**
 * Memex's 304 beside a bare Fastify route's, alternating twice so that neither side has the
 * machine's quieter moment to itself: the ratio of the two (goal ≥ 0.8 ×).
 */
async function besideBareFastify(url: string, key: string, etag: string, pid: number): Promise<void> {
  const bare = await startBareFastify();
  const memex: number[] = [];
  const baseline: number[] = [];
  let liveCpu = 0;
  let bareCpu = 0;
  try {
    for (let round = 0; round < 2; round += 1) {
      memex.push((await revalidate(url, key, etag, 10_000)).rate);
      baseline.push((await revalidate(bare.url, key, '"bench-brain-tag"', 10_000)).rate);
    }
    liveCpu = await cpuPerRequest(pid, url.replace('/api/v2/brain', '/health/live'), key, '', 20_000);
    bareCpu = await cpuPerRequest(bare.pid, bare.url, key, '"bench-brain-tag"', 20_000);
  } finally {
    bare.stop();
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(
    `  beside a bare Fastify 304 (same client, alternating twice): Memex ${memex.map((r) => fmt(r, 0)).join(' / ')} req/s, bare Fastify ${baseline.map((r) => fmt(r, 0)).join(' / ')} req/s, ratio ${fmt(sum(memex) / sum(baseline), 2)} × (goal ≥ 0.8 ×)`,
  );
  console.log(
    `  /health/live, server CPU per request over 20,000: ${fmt(liveCpu, 0)} µs (goal ≤ 100 µs); bare Fastify's 304: ${fmt(bareCpu, 0)} µs`,
  );
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
    const { rate, notModified } = await revalidate(url, server.apiKey, etag, total);
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
      `  304 revalidations: ${fmt(rate, 0)} req/s, ${fmt(notModified)} of ${fmt(total)} answered 304 (goal ≥ 5,000 req/s)`,
    );
    if (mode === 'server' && count === 5_000) await besideBareFastify(url, server.apiKey, etag, server.child.pid!);
    console.log(`  server peak RSS: ${fmt(server.peakRssMb(), 0)} MB`);
    if (count === 5_000) revalidations[mode] = rate;
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
