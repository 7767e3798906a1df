import type { Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { startApp, type BenchServer } from '../support/server-process';

/**
 * The all-in-one app alone on a database `seed` filled, as every part of bench:search measures
 * it: hygiene off (it would move items under the queries) and the embedding worker polling
 * every half second. Gives back what `seed` returned (the labelled queries, say).
 */
export async function startSearchApp<T>(
  label: string,
  seed: (db: Kysely<DB>, projectId: string) => Promise<T>,
): Promise<{ server: BenchServer; seeded: T }> {
  let seeded: T | undefined;
  const server = await startApp(
    label,
    'memex',
    async (db, projectId) => {
      seeded = await seed(db, projectId);
    },
    { HYGIENE_INTERVAL_MS: '0', EMBEDDING_POLL_MS: '500' },
  );
  return { server, seeded: seeded as T };
}
