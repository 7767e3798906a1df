import { Client } from 'pg';
import type { Kysely } from 'kysely';
import {
  createDatabase,
  createEmbeddedDatabase,
  ensureDatabaseExists,
  migrateInProcess,
  migrateToLatest,
  type DB,
} from '@memex/db';

/*
 * A fresh database as a bench run or a test file makes it, on PostgreSQL or embedded: the
 * integration tests (test/support/test-database) take these too, so both start from the
 * same migrated schema the same way.
 */

/** The database at `url`, created if the server lacks it, migrated to the latest release. */
export async function migratedDatabase(url: string, poolSize: number): Promise<Kysely<DB>> {
  await ensureDatabaseExists(url);
  const db = createDatabase({ url, poolSize });
  await migrateToLatest(db, url);
  return db;
}

/** The embedded (PGlite) database in `dataDir`, made there if it is not yet, migrated. */
export async function migratedEmbeddedDatabase(dataDir: string): Promise<Kysely<DB>> {
  const db = await createEmbeddedDatabase(dataDir);
  await migrateInProcess(db);
  return db;
}

/** Drops database `name`, connections and all, through the server `adminUrl` points at. */
export async function dropDatabaseOn(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}
