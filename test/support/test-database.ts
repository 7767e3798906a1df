import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Kysely } from 'kysely';
import { createDatabase, ensureDatabaseExists, migrateToLatest, type DB } from '@memex/db';

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  db: Kysely<DB>;
  drop(): Promise<void>;
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: databaseUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** A fresh, migrated database for one test file; dropped again by `drop()`. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = uniqueName('memex_test');
  const url = databaseUrl(name);
  await ensureDatabaseExists(url);
  const db = createDatabase({ url, poolSize: 4 });
  await migrateToLatest(db, url);
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(name);
    },
  };
}
