import { Client } from 'pg';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { newId } from '@memex/domain';
import { seed as seedItems } from '../brain/seed';
import { embeddingsCaughtUp } from '../support/poll-database';
import { startApp } from '../support/server-process';
import { fmt, summarize } from '../support/stats';

/**
 * The API calls the dashboard makes, timed against the all-in-one process holding one
 * project of 50,000 items (bench/brain's mix) and 500 sessions of 20 events each: every page
 * is one server-side page or search, so none of them reads the whole project.
 */
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50_000);
const SESSIONS = 500;
const EVENTS_PER_SESSION = 20;
const RUNS = Number(process.env.BENCH_REPEATS ?? 30);
const ADMIN = 'bench-admin-token-0123456789';

async function seed(db: Kysely<DB>, projectId: string): Promise<void> {
  await seedItems(db, projectId, ITEMS);
  const sessions = Array.from({ length: SESSIONS }, (_, i) => ({
    id: newId(),
    project_id: projectId,
    external_id: `bench-session-${i}`,
    last_event_at: new Date(),
  }));
  await db.insertInto('sessions').values(sessions).execute();
  for (const s of sessions) {
    await db
      .insertInto('raw_events')
      .values(
        Array.from({ length: EVENTS_PER_SESSION }, (_, k) => ({
          project_id: projectId,
          session_id: s.id,
          event_id: `${s.external_id}-${k}`,
          type: 'prompt',
          occurred_at: new Date(),
          content: `Prompt ${k} of ${s.external_id}`,
        })),
      )
      .execute();
  }
  // Enriched already: the worker has nothing to do while the bench runs.
  await sql`update sessions set enrichment_cursor = last_event_seq, completed_at = now()`.execute(db);
  // Each item belongs to one of the sessions (bench/brain's items all share one).
  await sql`
    update memory_items m set session_id = s.id
      from (select id, row_number() over (order by id) - 1 as n from sessions) s
     where s.n = abs(hashtext(m.id)) % ${SESSIONS}`.execute(db);
  await sql`analyze`.execute(db);
}

async function main(): Promise<void> {
  const server = await startApp('dashboard', 'memex', seed, { MEMEX_ADMIN_TOKEN: ADMIN, HYGIENE_INTERVAL_MS: '0' });
  const pg = new Client({ connectionString: server.databaseUrl });
  await pg.connect();
  const get = async (path: string, token = server.apiKey) => {
    const started = process.hrtime.bigint();
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, body };
  };
  try {
    // Search is measured once the embedding worker has embedded every item, as in use.
    await embeddingsCaughtUp(server.databaseUrl, {
      ms: 300_000,
      message: 'embeddings did not catch up within 5 minutes',
    });

    // A cursor 100 pages deep, walked the way the pager walks.
    let cursor = '';
    const walk: number[] = [];
    for (let page = 0; page < 100; page += 1) {
      const { ms, body } = await get(`/api/v2/memory-items?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      walk.push(ms);
      cursor = (JSON.parse(body) as { nextCursor: string }).nextCursor;
    }
    const { rows: sessionRows } = await pg.query<{ id: string }>('select id from sessions order by id limit 1');
    const old = new Date(Date.now() - 300 * 86_400_000).toISOString();
    const calls: Array<[string, string, string?]> = [
      ['items, first page of 50', '/api/v2/memory-items?limit=50'],
      ['items, page 101 (cursor)', `/api/v2/memory-items?limit=50&cursor=${cursor}`],
      ['items by tag', '/api/v2/memory-items?limit=50&tag=cache'],
      ['items by file (substring)', '/api/v2/memory-items?limit=50&file=cache%2Ffile3'],
      ['items older than 300 days', `/api/v2/memory-items?limit=50&updatedBefore=${old}`],
      [
        'items by type, status, confidence',
        '/api/v2/memory-items?limit=50&type=Decision&status=stale&minConfidence=0.8',
      ],
      ['items by a tag no item has (scans all)', '/api/v2/memory-items?limit=50&tag=no-such-tag'],
      ['items of one session', `/api/v2/memory-items?limit=50&sessionId=${sessionRows[0]!.id}`],
      ['hybrid search, 50 results', '/api/v2/search?q=webhook%20retry&limit=50'],
      ['sessions, page of 25 with counts', '/api/v2/sessions?limit=25'],
      ['projects with counts (admin)', '/api/v2/projects', ADMIN],
      ['brain, markdown (cached)', '/api/v2/brain?tokenBudget=6000'],
      ['hygiene proposals', '/api/v2/hygiene/proposals?limit=50'],
      ['recent changes', '/api/v2/hygiene/changes?limit=30'],
    ];
    const walked = summarize(walk);
    process.stdout.write(
      `\n${ITEMS.toLocaleString('en')} items, ${SESSIONS} sessions of ${EVENTS_PER_SESSION} events; ${RUNS} runs each (after one warm-up)\n\n`,
    );
    process.stdout.write('| call | p50 ms | p99 ms |\n| --- | --- | --- |\n');
    process.stdout.write(`| items, 100 pages walked by cursor (each) | ${fmt(walked.p50)} | ${fmt(walked.p99)} |\n`);
    for (const [label, path, token] of calls) {
      await get(path, token);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) times.push((await get(path, token)).ms);
      const s = summarize(times);
      process.stdout.write(`| ${label} | ${fmt(s.p50)} | ${fmt(s.p99)} |\n`);
    }
    process.stdout.write(`\npeak RSS ${fmt(server.peakRssMb(), 0)} MB\n`);
  } finally {
    await pg.end();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
