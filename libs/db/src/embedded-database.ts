import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { Kysely } from 'kysely';
import { Pool } from 'pg';
import { kyselyOver, typeParser } from './database';
import type { DB } from './schema';

/**
 * PGlite is one PostgreSQL backend: one session, so one connection. A pool that lent a second
 * client over it would interleave two transactions in one session (the second's statements
 * landing inside the first's transaction), so the process has one pool per data directory,
 * of one connection, shared by everything that opens it. `end()` gives a user's share back;
 * the last one closes the pool and PGlite.
 */
class EmbeddedPool extends Pool {
  users = 1;
  constructor(
    config: ConstructorParameters<typeof Pool>[0],
    readonly pglite: PGlite,
    private readonly release: () => void,
  ) {
    super(config);
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    const done = this.close();
    if (!callback) return done;
    void done.then(callback);
  }

  private async close(): Promise<void> {
    // A share given back twice is given back once.
    if (this.users <= 0) return;
    this.users -= 1;
    if (this.users > 0) return;
    this.release();
    await super.end();
    await this.pglite.close();
  }
}

const open = new Map<string, Promise<EmbeddedPool>>();

/** How long a caller waits for the one connection before its query fails (and a request answers 503). */
const CONNECTION_WAIT_MS = 15_000;

/**
 * The pool over the embedded database in `dataDir` (created on first use: `memory://` keeps
 * it in memory), shared by every caller in this process; end it when done with it. The same
 * repositories and SQL run on it as on a PostgreSQL server.
 */
export async function openEmbeddedPool(dataDir: string): Promise<Pool> {
  const existing = open.get(dataDir);
  if (existing) {
    const pool = await existing;
    pool.users += 1;
    return pool;
  }
  const opening = (async () => {
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    const pglite = await PGlite.create(dataDir);
    return new EmbeddedPool(
      {
        ...createPgConfig(pglite),
        max: 1,
        connectionTimeoutMillis: CONNECTION_WAIT_MS,
        types: { getTypeParser: typeParser as never },
      },
      pglite,
      () => open.delete(dataDir),
    );
  })();
  open.set(dataDir, opening);
  try {
    return await opening;
  } catch (error) {
    open.delete(dataDir);
    throw error;
  }
}

/** Kysely over the embedded database in `dataDir`; `destroy()` gives its share of the pool back. */
export async function createEmbeddedDatabase(dataDir: string): Promise<Kysely<DB>> {
  const pool = await openEmbeddedPool(dataDir);
  return kyselyOver(pool);
}

/** Whether a pool is the embedded one (one connection: nothing may wait on a second). */
export function isEmbeddedPool(pool: unknown): boolean {
  return pool instanceof EmbeddedPool;
}

/** The PGlite under an embedded pool, for what only it offers (notifications in process). */
export function pgliteOf(pool: Pool): PGlite | undefined {
  return pool instanceof EmbeddedPool ? pool.pglite : undefined;
}
