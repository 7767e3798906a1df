import { Migrator, sql, type Kysely, type MigrationResultSet } from 'kysely';
import { standaloneClient } from './connection-loss';
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
  const client = standaloneClient({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
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

export interface MigrationOutcome {
  /** Migrations this start applied. */
  applied: string[];
  /** Migrations the database has that this code does not know: a newer release ran first. */
  newer: string[];
}

type RunQuery = (text: string) => Promise<{ rows: Array<{ t?: unknown; name?: string }> }>;

async function executedMigrations(query: RunQuery): Promise<string[]> {
  const table = await query(`select to_regclass('public.kysely_migration') as t`);
  if (!table.rows[0]?.t) return [];
  const rows = await query('select name from kysely_migration order by name');
  return rows.rows.map((r) => r.name!);
}

/**
 * Applies pending migrations while holding a session-level advisory lock on its own
 * connection, so replicas starting together apply each migration exactly once: the others
 * wait, then find nothing left to do. (Kysely's own lock is taken only after it has created
 * its bookkeeping tables, and two replicas racing on that create can fail.)
 *
 * During a rolling deploy an older replica may start against a database a newer release
 * already migrated. Migrations are forward-only and additive, so when every migration this
 * code knows is applied it runs as it is and reports the newer ones; anything else is an error.
 */
export async function migrateToLatest(db: Kysely<DB>, url: string): Promise<MigrationOutcome> {
  const lock = standaloneClient({ connectionString: url, connectionTimeoutMillis: 5000 });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await applyMigrations(db, await executedMigrations((text) => lock.query(text)));
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}

/**
 * Applies pending migrations on a database only this process opens (embedded mode: the
 * home's lock keeps every other process out), through its one connection.
 */
export async function migrateInProcess(db: Kysely<DB>): Promise<MigrationOutcome> {
  const executed = await executedMigrations((text) => sql.raw<{ t?: unknown; name?: string }>(text).execute(db));
  return applyMigrations(db, executed);
}

async function applyMigrations(db: Kysely<DB>, executed: string[]): Promise<MigrationOutcome> {
  const known = Object.keys(MIGRATIONS);
  const newer = executed.filter((name) => !known.includes(name));
  if (newer.length > 0) {
    const missing = known.filter((name) => !executed.includes(name));
    if (missing.length > 0) {
      throw new MigrationError(
        `the database has migrations this code does not know (${newer.join(', ')}) and lacks ${missing.join(', ')}`,
        [],
      );
    }
    return { applied: [], newer };
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`migration ${failed} failed: ${(error as Error).message ?? error}`, results);
  }
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName), newer: [] };
}

/** Migrations this code knows that the database has not applied (all of them when it does not exist). */
export async function pendingMigrations(url: string): Promise<string[]> {
  const client = standaloneClient({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') return Object.keys(MIGRATIONS);
    throw error;
  }
  try {
    const executed = await executedMigrations((text) => client.query(text));
    return Object.keys(MIGRATIONS).filter((name) => !executed.includes(name));
  } finally {
    await client.end();
  }
}
