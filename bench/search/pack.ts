import { Client } from 'pg';
import { sql as kysely } from 'kysely';
import { createDatabase } from '@memex/db';
import { fmt, summarize } from '../support/stats';
import { embeddingsCaughtUp } from '../support/poll-database';
import { PACK_QUERY_KINDS, PACK_SESSIONS, seedPackCorpus, type PackQuery } from './pack-corpus';
import { growPackCorpus } from './pack-growth';
import { startSearchApp } from './search-app';

type Component = { type: string; source: string; relevanceScore: number };

async function pack(base: string, key: string, query: string): Promise<{ components: Component[]; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/v2/context-pack`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, maxTokens: 2000 }),
  });
  if (!res.ok) throw new Error(`context-pack answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { components: Component[] };
  return { components: body.components, ms: performance.now() - started };
}

/** The rank of the first relevant memory component, by combined score (recent events and the stack aside). */
function rankOf(components: Component[], relevant: string[]): number {
  const memory = components
    .filter((c) => c.type !== 'recent' && c.type !== 'custom')
    .sort((a, b) => b.relevanceScore - a.relevanceScore);
  return memory.findIndex((c) => relevant.includes(c.source)) + 1;
}

async function quality(base: string, key: string, queries: PackQuery[]): Promise<string> {
  let hits = 0;
  let reciprocal = 0;
  const byKind: Record<string, number> = {};
  for (const q of queries) {
    const rank = rankOf((await pack(base, key, q.query)).components, q.relevant);
    if (rank > 0 && rank <= 5) {
      hits += 1;
      byKind[q.kind] = (byKind[q.kind] ?? 0) + 1;
    }
    if (rank > 0) reciprocal += 1 / rank;
  }
  const perKind = PACK_QUERY_KINDS.map((k) => `${k} ${byKind[k] ?? 0}/${PACK_SESSIONS}`).join(', ');
  return `recall@5 ${fmt(hits / queries.length, 3)}, MRR ${fmt(reciprocal / queries.length, 3)} (${perKind})`;
}

async function sql(databaseUrl: string, text: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Every query asked twice, after one warm-up pack (which loads the vectors): the latencies. */
async function latencies(base: string, key: string, queries: PackQuery[]): Promise<number[]> {
  await pack(base, key, queries[0]!.query);
  const out: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    for (const q of queries) out.push((await pack(base, key, q.query)).ms);
  }
  return out;
}

/**
 * Context packs over a corpus of `count` items whose entity store was filled from real-format
 * sessions: quality of labelled queries naming a file, a function or an error seen before, with
 * the entity store and then without it (emptied: search and recent events alone), and latency.
 */
export async function measurePack(count: number, withQuality: boolean): Promise<void> {
  const { server, seeded: queries } = await startSearchApp(`pack${count}`, (db, projectId) =>
    seedPackCorpus(db, projectId, count),
  );
  try {
    const indexMs = await embeddingsCaughtUp(server.databaseUrl);
    console.log(
      `bench:search context pack — ${fmt(count)} items, ${PACK_SESSIONS} real-format sessions in the entity store`,
    );
    console.log(`  embedded by the worker in ${fmt(indexMs / 1000, 1)} s`);
    const measured = await latencies(server.url, server.apiKey, queries);
    const s = summarize(measured);
    if (withQuality) {
      console.log(`  ${queries.length} labelled queries, maxTokens 2000, rank by the components' combined score:`);
      console.log(`    with entities, relations, patterns    ${await quality(server.url, server.apiKey, queries)}`);
    }
    console.log(
      `  pack latency over ${measured.length} queries: p50 ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms` +
        `${count <= 10_000 ? ' (goal p50 < 30 ms)' : ''}`,
    );
    if (withQuality) {
      await sql(server.databaseUrl, 'delete from entities; delete from error_occurrences;');
      console.log(`    without (entity store emptied)        ${await quality(server.url, server.apiKey, queries)}`);
    }
    console.log(`  server peak RSS: ${fmt(server.peakRssMb(), 0)} MB`);
  } finally {
    await server.stop();
  }
}

/**
 * The same pack queries before and after the database grows by `events` events (and their
 * entities, error occurrences and items) over this project and two others: a pack's reads are
 * bounded by the project and by indexes, so its p50 should stay within 1.2 times the first.
 * The grown tables are not analysed before the second run (autovacuum is off for them in the
 * bench's database): the plans must not depend on fresh statistics.
 */
export async function measurePackGrowth(count: number, events: number): Promise<void> {
  const { server, seeded } = await startSearchApp(`packgrowth${count}`, async (db, projectId) => ({
    queries: await seedPackCorpus(db, projectId, count),
    projectId,
  }));
  const { queries, projectId: projectOf } = seeded;
  try {
    await embeddingsCaughtUp(server.databaseUrl);
    console.log(`bench:search context pack growth — ${fmt(count)} items, then ${fmt(events)} more events`);
    const first = summarize(await latencies(server.url, server.apiKey, queries));
    console.log(`  first:        p50 ${fmt(first.p50, 1)} ms, p99 ${fmt(first.p99, 1)} ms`);
    const db = createDatabase({ url: server.databaseUrl, poolSize: 2 });
    const started = performance.now();
    let written = 0;
    try {
      // The second run plans on the statistics of the first corpus, whenever autovacuum would
      // have come round: a pack's plans must not wait for an ANALYZE.
      for (const table of GROWN_TABLES)
        await kysely`alter table ${kysely.table(table)} set (autovacuum_enabled = false)`.execute(db);
      written = await growPackCorpus(db, projectOf, events);
    } finally {
      await db.destroy();
    }
    const growMs = performance.now() - started;
    const embedMs = await embeddingsCaughtUp(server.databaseUrl);
    const counts = await rowCounts(server.databaseUrl);
    console.log(
      `  grown by ${fmt(written)} events over 3 projects in ${fmt(growMs / 1000, 1)} s (repositories and SQL in batches), ` +
        `embedded in ${fmt(embedMs / 1000, 1)} s: ${counts}`,
    );
    const after = summarize(await latencies(server.url, server.apiKey, queries));
    console.log(`  after growth: p50 ${fmt(after.p50, 1)} ms, p99 ${fmt(after.p99, 1)} ms`);
    console.log(`  p50 ratio after / first: ${fmt(after.p50 / first.p50, 2)} (goal ≤ 1.2)`);
    console.log(`  server peak RSS: ${fmt(server.peakRssMb(), 0)} MB`);
  } finally {
    await server.stop();
  }
}

const GROWN_TABLES = [
  'raw_events',
  'sessions',
  'memory_items',
  'entities',
  'item_entities',
  'entity_relations',
  'entity_mentions',
  'error_occurrences',
];

/** How big the grown database is, table by table. */
async function rowCounts(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const counts: string[] = [];
    for (const t of GROWN_TABLES)
      counts.push(`${t} ${fmt(Number((await client.query(`select count(*) from ${t}`)).rows[0].count))}`);
    return counts.join(', ');
  } finally {
    await client.end();
  }
}
