import { Client } from 'pg';
import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import { MIGRATIONS } from './migrations';
import type { DB } from './schema';

const DUPLICATE_DATABASE = '42P04';
/** Any fixed number shared by every replica; it names the migration lock. */
const MIGRATION_LOCK_KEY = 0x6d656d6578; // "memex"

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL names no database: ${url}`);
  return name;
}

/** Creates the database named by `url` when it is missing, through the server's `postgres` database. */
export async function ensureDatabaseExists(url: string): Promise<boolean> {
  const name = databaseName(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`create database "${name.replace(/"/g, '""')}"`);
      return true;
    } catch (error) {
      // Another replica created it between our look and our create.
      if ((error as { code?: string }).code === DUPLICATE_DATABASE) return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly results: MigrationResultSet['results'],
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * Applies pending migrations while holding a session-level advisory lock on its own
 * connection, so replicas starting together apply each migration exactly once: the others
 * wait, then find nothing left to do. (Kysely's own lock is taken only after it has created
 * its bookkeeping tables, and two replicas racing on that create can fail.)
 */
export async function migrateToLatest(db: Kysely<DB>, url: string): Promise<string[]> {
  const lock = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    const { error, results = [] } = await migrator.migrateToLatest();
    if (error) {
      const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new MigrationError(`migration ${failed} failed: ${(error as Error).message ?? error}`, results);
    }
    return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
