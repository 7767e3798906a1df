import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import {
  MIGRATIONS,
  createDatabase,
  createEmbeddedDatabase,
  ensureDatabaseExists,
  migrateInProcess,
  migrateToLatest,
} from '@memex/db';
import { describeServerOnly } from '../../../test/support/mode';
import { databaseUrl, dropDatabase, uniqueName } from '../../../test/support/test-database';

describe('embedded database bootstrap', () => {
  const home = mkdtempSync(join(tmpdir(), 'memex-migrate-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('applies every migration once, keeps them across a restart, and reports a newer release', async () => {
    const dir = join(home, 'pgdata');
    const first = await createEmbeddedDatabase(dir);
    try {
      expect((await migrateInProcess(first)).applied).toEqual(Object.keys(MIGRATIONS));
    } finally {
      await first.destroy();
    }
    const reopened = await createEmbeddedDatabase(dir);
    try {
      expect(await migrateInProcess(reopened)).toEqual({ applied: [], newer: [] });
      await sql`insert into kysely_migration (name, timestamp) values ('9999_future', now())`.execute(reopened);
      expect(await migrateInProcess(reopened)).toEqual({ applied: [], newer: ['9999_future'] });
    } finally {
      await reopened.destroy();
    }
  }, 60_000);

  it('leaves each item the refs its spans quote and, as merged, only ids of items (0019)', async () => {
    const db = await createEmbeddedDatabase('memory://');
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
      expect((await migrator.migrateTo('0018_gin_without_pending_list')).error).toBeUndefined();
      await sql`insert into projects (id, name) values ('P', 'p')`.execute(db);
      const item = (id: string, refs: string[], spans: object[], merged: string[]) =>
        sql`
        insert into memory_items (id, project_id, type, title, facts, schema_key, confidence, status,
                                  evidence_refs, evidence_spans, session_id, merged_from)
        values (${id}, 'P', 'Decision', ${id}, 'f', 'root', 0.7, 'active',
                ${refs}::text[], ${JSON.stringify(spans)}::jsonb, 's', ${merged}::text[])`.execute(db);
      // Reinforced before the fix: refs of every saying, a made-up id per saying beside a real merge.
      await item(
        'K',
        ['e1', 'e2', 'e3', 'e9'],
        [
          { eventId: 'e3', quote: 'a' },
          { eventId: 'e2', quote: 'b' },
          { eventId: 'e3', quote: 'c' },
        ],
        ['01JD0000000000000000000000', 'A'],
      );
      // Written by a person with no quote: its refs stay.
      await item('A', ['x'], [], []);
      expect(await migrateInProcess(db)).toEqual({
        applied: ['0019_item_evidence_refs', '0020_session_stops', '0021_session_ends'],
        newer: [],
      });
      const { rows } = await sql<{ id: string; evidence_refs: string[]; merged_from: string[] }>`
        select id, evidence_refs, merged_from from memory_items order by id`.execute(db);
      expect(rows).toEqual([
        { id: 'A', evidence_refs: ['x'], merged_from: [] },
        { id: 'K', evidence_refs: ['e3', 'e2'], merged_from: ['A'] },
      ]);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it('forgets where sessions stopped, which is no end, and keeps room for where they end (0021)', async () => {
    const db = await createEmbeddedDatabase('memory://');
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
      expect((await migrator.migrateTo('0020_session_stops')).error).toBeUndefined();
      await sql`insert into projects (id, name) values ('P', 'p')`.execute(db);
      await sql`
        insert into sessions (id, project_id, external_id, last_event_at, last_event_seq, stopped_seq)
        values ('S', 'P', 's', now(), 7, 7)`.execute(db);
      expect(await migrateInProcess(db)).toEqual({ applied: ['0021_session_ends'], newer: [] });
      const { rows } = await sql<{ ended_seq: number | null; end_read_seq: number | null }>`
        select ended_seq, end_read_seq from sessions`.execute(db);
      expect(rows).toEqual([{ ended_seq: null, end_read_seq: null }]);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it('leaves the full-text indexes that requests read without a pending list', async () => {
    const db = await createEmbeddedDatabase(join(home, 'pgdata'));
    try {
      const { rows } = await sql<{ name: string; options: string[] | null }>`
        select relname as name, reloptions as options from pg_class
         where relname in ('memory_items_search_idx', 'entities_error_words_idx') order by relname`.execute(db);
      expect(rows).toEqual([
        { name: 'entities_error_words_idx', options: ['fastupdate=off'] },
        { name: 'memory_items_search_idx', options: ['fastupdate=off'] },
      ]);
    } finally {
      await db.destroy();
    }
  });
});

describeServerOnly('database bootstrap', 'creates databases on a PostgreSQL server', () => {
  const name = uniqueName('memex_migrate');
  const url = databaseUrl(name);
  afterAll(() => dropDatabase(name));

  it('creates a missing database once, and is a no-op after', async () => {
    expect(await ensureDatabaseExists(url)).toBe(true);
    expect(await ensureDatabaseExists(url)).toBe(false);
  });

  it('applies every migration exactly once when replicas start together', async () => {
    const replicas = Array.from({ length: 4 }, () => createDatabase({ url, poolSize: 2 }));
    try {
      const applied = (await Promise.all(replicas.map((db) => migrateToLatest(db, url)))).map((o) => o.applied);
      // One replica applied everything; the others waited on the lock and found nothing to do.
      expect(applied.flat().sort()).toEqual(Object.keys(MIGRATIONS).sort());
      expect(applied.filter((a) => a.length > 0)).toHaveLength(1);

      const db = replicas[0]!;
      const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables where table_schema = 'public' order by table_name`.execute(db);
      expect(tables.rows.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['api_keys', 'item_history', 'memory_items', 'projects', 'raw_events', 'sessions']),
      );
      expect(await migrateToLatest(db, url)).toEqual({ applied: [], newer: [] });
    } finally {
      await Promise.all(replicas.map((db) => db.destroy()));
    }
  });

  it('runs on a database a newer release already migrated, reporting what it does not know', async () => {
    const db = createDatabase({ url, poolSize: 1 });
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_future', now())`.execute(db);
      expect(await migrateToLatest(db, url)).toEqual({ applied: [], newer: ['9999_future'] });

      // Newer migrations and a missing known one: not a state any release sequence makes.
      await sql`delete from kysely_migration where name = ${Object.keys(MIGRATIONS)[0]}`.execute(db);
      await expect(migrateToLatest(db, url)).rejects.toThrow(/does not know \(9999_future\) and lacks 0001_initial/);
    } finally {
      await db.destroy();
    }
  });
});
