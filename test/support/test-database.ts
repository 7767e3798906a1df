import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { embeddedDataDir } from '@memex/server';
import { dropDatabaseOn, migratedDatabase, migratedEmbeddedDatabase } from '../../bench/support/databases';
import { EMBEDDED } from './mode';

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
  /** The database's URL in server mode ('' in embedded mode). */
  url: string;
  /** Embedded mode: the MEMEX_HOME that holds it (an app started on it shares its one connection). */
  home?: string;
  db: Kysely<DB>;
  drop(): Promise<void>;
}

export function dropDatabase(name: string): Promise<void> {
  return dropDatabaseOn(databaseUrl('postgres'), name);
}

/**
 * Creates a login role that is not a superuser with the rights the app needs on the database
 * at `url` (which stays its owner's), and returns the URL that connects as the role.
 */
export async function grantRole(url: string, role: string): Promise<string> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create role "${role}" login`);
    await admin.query(`grant usage on schema public to "${role}"`);
    await admin.query(`grant select, insert, update, delete on all tables in schema public to "${role}"`);
    await admin.query(`grant usage, select on all sequences in schema public to "${role}"`);
  } finally {
    await admin.end();
  }
  const asRole = new URL(url);
  asRole.username = role;
  return asRole.toString();
}

/** Drops a role made by `grantRole`, once the database it had rights on is gone. */
export async function dropRole(role: string): Promise<void> {
  const admin = new Client({ connectionString: databaseUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`drop role if exists "${role}"`);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database for one test file; dropped again by `drop()`. In embedded mode a
 * PGlite home in a temporary directory, which the file's app opens too.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (EMBEDDED) return createEmbeddedTestDatabase();
  const name = uniqueName('memex_test');
  const url = databaseUrl(name);
  const db = await migratedDatabase(url, 4);
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(name);
    },
  };
}

async function createEmbeddedTestDatabase(): Promise<TestDatabase> {
  const home = mkdtempSync(join(tmpdir(), 'memex-test-'));
  const dataDir = embeddedDataDir({ MEMEX_HOME: home });
  // The global setup's migrated cluster, copied: a fresh initdb per file costs seconds of CPU.
  const template = process.env.MEMEX_TEST_PGLITE_TEMPLATE;
  if (template && existsSync(template)) cpSync(template, dataDir, { recursive: true });
  const db = await migratedEmbeddedDatabase(dataDir);
  return {
    url: '',
    home,
    db,
    async drop() {
      await db.destroy();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
