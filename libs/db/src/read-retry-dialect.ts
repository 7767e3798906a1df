import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { isConnectionLoss, pauseAfterConnectionLoss } from './connection-loss';

/** Raw SQL that opens as a query: `select`, `(select …) union …`, or `with` and its CTEs. */
const OPENS_AS_QUERY = /^[\s(]*(?:select|with)\b/i;
/** What a data-modifying statement or CTE says; values are parameters, so only the code's own SQL is read. */
const MODIFIES = /\b(?:insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into)\b/i;

/**
 * A statement that only reads, so that running it again on another connection cannot do
 * anything twice: a SELECT built with Kysely, or raw SQL that opens as a query and modifies
 * nothing (a `with … insert` does).
 */
export function onlyReads(query: CompiledQuery): boolean {
  if (query.query.kind === 'SelectQueryNode') return true;
  return query.query.kind === 'RawNode' && OPENS_AS_QUERY.test(query.sql) && !MODIFIES.test(query.sql);
}

/**
 * Where a read outside a transaction meets a lost connection (a restart, a failover, a
 * terminated backend), it runs again, once, on a fresh connection: the caller never sees the
 * loss. Done here, where the query runs, so that no request pays for a retry it does not need.
 * Writes are not run again (the lost statement may have committed; a write that is safe to
 * repeat retries itself where it knows why), nor is anything inside a transaction, which
 * ended with its connection.
 */
class RetryingConnection implements DatabaseConnection {
  inTransaction = false;
  /** Undefined between giving a broken connection back and getting a fresh one. */
  private current: DatabaseConnection | undefined;

  constructor(
    inner: DatabaseConnection,
    private readonly driver: Driver,
  ) {
    this.current = inner;
  }

  get inner(): DatabaseConnection {
    if (!this.current) throw new Error('Connection terminated: no connection could be had again');
    return this.current;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      if (this.inTransaction || !onlyReads(query) || !isConnectionLoss(error)) throw error;
      await pauseAfterConnectionLoss();
      // The broken connection goes back first (the pool drops it): holding it while waiting for
      // a fresh one would, with every connection of a full pool broken at once, wait for ever.
      const broken = this.inner;
      this.current = undefined;
      await this.driver.releaseConnection(broken).catch(() => undefined);
      this.current = await this.driver.acquireConnection();
      return this.current.executeQuery<R>(query);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }

  /** Gives the connection back, unless a failed retry left none to give. */
  async release(): Promise<void> {
    const connection = this.current;
    this.current = undefined;
    if (connection) await this.driver.releaseConnection(connection);
  }
}

class RetryingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RetryingConnection(await this.inner.acquireConnection(), this.inner);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as RetryingConnection;
    c.inTransaction = true;
    await this.inner.beginTransaction(c.inner, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.endTransaction(connection, (inner) => this.inner.commitTransaction(inner));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.endTransaction(connection, (inner) => this.inner.rollbackTransaction(inner));
  }

  /** A commit or a rollback: whether it succeeds or fails, the transaction is over, and reads may retry again. */
  private async endTransaction(
    connection: DatabaseConnection,
    end: (inner: DatabaseConnection) => Promise<void>,
  ): Promise<void> {
    const c = connection as RetryingConnection;
    try {
      await end(c.inner);
    } finally {
      c.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.((connection as RetryingConnection).inner, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint?.((connection as RetryingConnection).inner, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.releaseSavepoint?.((connection as RetryingConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return (connection as RetryingConnection).release();
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** `dialect` with its reads retried once on a lost connection (see RetryingConnection). */
export function withReadRetry(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new RetryingDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
