import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types, type PoolConfig } from 'pg';
import { withReadRetry } from './read-retry-dialect';
import type { DB } from './schema';

const INT8_OID = 20;

/**
 * bigint columns (sequences, revisions) come back as numbers: they stay far below 2^53,
 * and numbers compare and serialize the way the rest of the code expects.
 */
export function typeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === INT8_OID) return (value: string) => Number(value);
  return types.getTypeParser(oid, format as 'text');
}

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /** A connection broke (a server restart, a terminated backend, a failover), idle or in use. */
  onConnectionError?: (error: Error) => void;
}

export function createPool(options: DatabaseOptions): Pool {
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.poolSize ?? 10,
    application_name: options.applicationName ?? 'memex',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types: { getTypeParser: typeParser as never },
  };
  const pool = new Pool(config);
  // Each client emits 'error' when its connection breaks, and unheard the event ends the
  // process. The pool listens only while a client is idle (and then re-emits it on itself);
  // a client checked out for a query has no listener but this one. Its query fails with the
  // error, and the pool drops the client when it comes back.
  pool.on('connect', (client) => client.on('error', (error) => options.onConnectionError?.(error)));
  pool.on('error', () => undefined);
  return pool;
}

export function createDatabase(options: DatabaseOptions): Kysely<DB> {
  return kyselyOver(createPool(options));
}

/** Kysely over a pool, its reads retried once on a lost connection (read-retry-dialect.ts). */
export function kyselyOver(pool: Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: withReadRetry(new PostgresDialect({ pool })) });
}
