import { Client, type ClientConfig } from 'pg';

/**
 * SQLSTATEs of a connection the server ended or refused (57P01 a terminated backend, 57P02 a
 * crash, 57P03 a server starting or stopping, 53300 too many connections; class 08, connection
 * exceptions), and socket errors of a connection that broke or could not be opened. And 25006,
 * a write refused because the server is read-only: after a failover, a connection opened to
 * the old primary (now a standby) until the address moves; the next connection may reach the
 * new one, so it is the same "try again" as a lost connection, never the client's fault.
 */
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '25006',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * What pg says of a connection that ended under a query, of a client used after its
 * connection broke, and of a pool that could not open one in time.
 */
const CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/** What PostgreSQL says, with SQLSTATE 55000, of a database whose ALLOW_CONNECTIONS is false. */
const CLOSED_DATABASE = /is not currently accepting connections/;

/** The database connection was lost or could not be had: the work did not fail on its own account. */
export function isConnectionLoss(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  // 55000 is a family of its own; only the database closed to new connections is one of ours.
  if (e.code === '55000' && typeof e.message === 'string' && CLOSED_DATABASE.test(e.message)) return true;
  return typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message);
}

/** Long enough for the pool to notice its other connections of a terminated server are gone too. */
const RETRY_PAUSE_MS = 100;

/** The pause before work lost with its connection runs again. */
export function pauseAfterConnectionLoss(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
}

/**
 * Runs idempotent work (a read, a write keyed so that running it twice stores it once) and,
 * when the connection under it was lost, once more on a fresh one. Anything else, and a
 * second loss, is thrown.
 */
export async function retryOnConnectionLoss<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isConnectionLoss(error)) throw error;
    await pauseAfterConnectionLoss();
    return work();
  }
}

/**
 * A connection of its own, outside the pool (migrations, start-up checks). Its broken
 * connection is reported by the query that fails on it; unheard, the client's 'error' event
 * would end the process.
 */
export function standaloneClient(config: ClientConfig): Client {
  const client = new Client(config);
  client.on('error', () => undefined);
  return client;
}
