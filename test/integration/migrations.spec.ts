import { sql } from 'kysely';
import { MIGRATIONS, createDatabase, ensureDatabaseExists, migrateToLatest } from '@memex/db';
import { databaseUrl, dropDatabase, uniqueName } from '../support/test-database';

describe('database bootstrap', () => {
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
      const applied = await Promise.all(replicas.map((db) => migrateToLatest(db, url)));
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
      expect(await migrateToLatest(db, url)).toEqual([]);
    } finally {
      await Promise.all(replicas.map((db) => db.destroy()));
    }
  });
});
