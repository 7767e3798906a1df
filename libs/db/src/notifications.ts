import type { Pool } from 'pg';
import { standaloneClient } from './connection-loss';
import { pgliteOf } from './embedded-database';

/**
 * Hears PostgreSQL notifications on `channel`: on a connection of its own to the server, or,
 * on the embedded database, through PGlite in this process (a pooled connection cannot wait
 * for them). `onLost` is told when the server's connection breaks; nothing is heard until
 * the caller listens again. Returns how to stop.
 */
export async function listenForNotifications(
  pool: Pool,
  url: string,
  channel: string,
  handlers: { onMessage(payload: string): void; onLost(error: Error): void },
): Promise<() => Promise<void>> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const pglite = pgliteOf(pool);
  if (pglite) return pglite.listen(channel, handlers.onMessage);
  const client = standaloneClient({ connectionString: url, application_name: `memex-${channel}` });
  client.on('notification', (message) => handlers.onMessage(message.payload ?? ''));
  client.on('error', (error) => handlers.onLost(error));
  client.on('end', () => handlers.onLost(new Error('connection ended')));
  try {
    await client.connect();
    await client.query(`listen ${channel}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return () => client.end().catch(() => undefined);
}

/** Notifications on a channel, from wherever the database is: what a feature listens through. */
export interface NotificationSource {
  listen(
    channel: string,
    handlers: { onMessage(payload: string): void; onLost(error: Error): void },
  ): Promise<() => Promise<void>>;
}

export const NOTIFICATIONS = Symbol('NOTIFICATIONS');
