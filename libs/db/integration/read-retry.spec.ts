import { Client } from 'pg';
import { sql, type Kysely } from 'kysely';
import { createDatabase, isConnectionLoss, type DB } from '@memex/db';
import { describeServerOnly } from '../../../test/support/mode';
import { createTestDatabase, databaseUrl, type TestDatabase } from '../../../test/support/test-database';

/**
 * Kysely's driver runs a read again, once, on a fresh connection when its own was lost, and
 * never a write or anything inside a transaction: checked on a real PostgreSQL whose backends
 * are terminated under a pool of one connection.
 */
describeServerOnly('reads retried where they run', 'terminates database backends', () => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  let admin: Client;
  const applicationName = `memex_read_retry_${process.pid}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDatabase({ url: database.url, poolSize: 1, applicationName });
    admin = new Client({ connectionString: databaseUrl('postgres') });
    await admin.connect();
  });

  afterAll(async () => {
    await db.destroy();
    await admin.end();
    await database.drop();
  });

  /**
   * Ends the backend under `work`'s connection, which `work` holds (an idle one the pool would
   * drop on its own, on hearing it end), then runs `work`'s statement on it.
   */
  function onLostConnection<T>(work: (conn: Kysely<DB>) => Promise<T>): Promise<T> {
    return db.connection().execute(async (conn) => {
      await sql`select 1`.execute(conn);
      await terminate();
      return work(conn);
    });
  }

  async function terminate(): Promise<void> {
    const { rows } = await admin.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1`,
      [applicationName],
    );
    expect(rows[0]!.n).toBe(1);
    // The backend is gone before the next statement is sent on its connection.
    await new Promise((r) => setTimeout(r, 100));
  }

  async function lost(work: Promise<unknown>): Promise<boolean> {
    try {
      await work;
      return false;
    } catch (error) {
      return isConnectionLoss(error);
    }
  }

  it('runs a SELECT built with Kysely and a raw select again on a fresh connection', async () => {
    await expect(onLostConnection((conn) => conn.selectFrom('projects').select('id').execute())).resolves.toEqual([]);
    const { rows } = await onLostConnection((conn) => sql<{ one: number }>`select 1 as one`.execute(conn));
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('does not run a write again: the lost statement may have committed', async () => {
    const insert = onLostConnection((conn) =>
      conn.insertInto('projects').values({ id: 'p_retry', name: 'retry' }).execute(),
    );
    expect(await lost(insert)).toBe(true);
    expect(await db.selectFrom('projects').select('id').where('id', '=', 'p_retry').execute()).toEqual([]);
  });

  it('does not run a read inside a transaction again: the transaction ended with its connection', async () => {
    const failed = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await terminate();
      return trx.selectFrom('projects').select('id').execute();
    });
    expect(await lost(failed)).toBe(true);
    // The pool has dropped the broken connection and opens a fresh one.
    await expect(sql`select 1`.execute(db)).resolves.toBeDefined();
  });
});
