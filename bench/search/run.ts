import { fmt, summarize } from '../support/stats';
import { embeddingsCaughtUp } from '../support/poll-database';
import { PER_KIND, QUERY_KINDS, seedSearchCorpus } from './corpus';
import { measurePack, measurePackGrowth } from './pack';
import { startSearchApp } from './search-app';

type Mode = 'fulltext' | 'vector' | 'hybrid';

async function search(
  base: string,
  key: string,
  q: string,
  mode: Mode,
  limit = 50,
): Promise<{ ids: string[]; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/v2/search?q=${encodeURIComponent(q)}&mode=${mode}&limit=${limit}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (!res.ok) throw new Error(`search answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { results: Array<{ itemId: string }> };
  return { ids: body.results.map((r) => r.itemId), ms: performance.now() - started };
}

async function measure(count: number, quality: boolean): Promise<void> {
  const { server, seeded: queries } = await startSearchApp(`search${count}`, (db, projectId) =>
    seedSearchCorpus(db, projectId, count),
  );
  try {
    const indexMs = await embeddingsCaughtUp(server.databaseUrl);
    console.log(`bench:search — ${fmt(count)} items, all-in-one process, postgres vector store, local embedder`);
    console.log(`  embedded by the worker in ${fmt(indexMs / 1000, 1)} s`);
    if (quality) {
      console.log(`  ${queries.length} labelled queries (labels fixed when the corpus is built):`);
      const quality: Record<string, { recall: number; mrr: number }> = {};
      for (const mode of ['fulltext', 'vector', 'hybrid'] as const) {
        let hits = 0;
        let reciprocal = 0;
        const byKind: Record<string, number> = {};
        for (const q of queries) {
          const { ids } = await search(server.url, server.apiKey, q.query, mode);
          const rank = ids.indexOf(q.relevant) + 1;
          if (rank > 0 && rank <= 5) {
            hits += 1;
            byKind[q.kind] = (byKind[q.kind] ?? 0) + 1;
          }
          if (rank > 0) reciprocal += 1 / rank;
        }
        const perKind = QUERY_KINDS.map((k) => `${k} ${byKind[k] ?? 0}/${PER_KIND}`).join(', ');
        quality[mode] = { recall: hits / queries.length, mrr: reciprocal / queries.length };
        console.log(
          `    ${mode.padEnd(8)} recall@5 ${fmt(quality[mode].recall, 3)}, MRR ${fmt(quality[mode].mrr, 3)} (${perKind})`,
        );
      }
      const { fulltext, vector, hybrid } = quality as Record<
        'fulltext' | 'vector' | 'hybrid',
        { recall: number; mrr: number }
      >;
      const beats = (m: 'recall' | 'mrr') => hybrid[m] > fulltext[m] && hybrid[m] > vector[m];
      console.log(
        `    hybrid beats both sources: recall@5 ${beats('recall') ? 'yes' : 'NO'}, MRR ${beats('mrr') ? 'yes' : 'NO'}`,
      );
    }
    // Latency: hybrid, limit 10, after one warm-up query loads the vectors.
    await search(server.url, server.apiKey, queries[0]!.query, 'hybrid', 10);
    const latencies: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      for (const q of queries) latencies.push((await search(server.url, server.apiKey, q.query, 'hybrid', 10)).ms);
    }
    const s = summarize(latencies);
    console.log(
      `  hybrid search latency over ${latencies.length} queries: p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms ` +
        `(goal p50 < ${count > 10_000 ? 100 : 30} ms)`,
    );
    console.log(`  server peak RSS: ${fmt(server.peakRssMb(), 0)} MB`);
  } finally {
    await server.stop();
  }
}

/**
 * BENCH_SEARCH_PART=search, =pack or =growth runs one part; all by default (=pack includes the
 * growth run). BENCH_GROWTH_EVENTS sets the growth (100,000 events).
 */
async function main(): Promise<void> {
  const part = process.env.BENCH_SEARCH_PART;
  const large = Number(process.env.BENCH_LARGE ?? 100_000);
  if (part !== 'pack' && part !== 'growth') {
    await measure(10_000, true);
    await measure(large, process.env.BENCH_QUALITY_LARGE === '1');
  }
  if (part !== 'search' && part !== 'growth') {
    await measurePack(10_000, true);
    await measurePack(large, process.env.BENCH_QUALITY_LARGE === '1');
  }
  if (part !== 'search') await measurePackGrowth(10_000, Number(process.env.BENCH_GROWTH_EVENTS ?? 100_000));
}

void main();
