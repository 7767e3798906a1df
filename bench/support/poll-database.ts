import { Client } from 'pg';

/** How long a wait may take, and what it says when it took longer. */
export interface Deadline {
  ms: number;
  message: string;
}

/** What to ask, how often (250 ms unless said), and for how long (as long as it takes unless said). */
export interface Poll {
  query: string;
  values?: unknown[];
  everyMs?: number;
  deadline?: Deadline;
}

/** Asks the poll's query of the database, on one connection, until `done` holds of its first row: the milliseconds that took. */
export async function pollDatabase<R extends object>(
  databaseUrl: string,
  poll: Poll,
  done: (row: R | undefined) => boolean,
): Promise<number> {
  const started = performance.now();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<R>(poll.query, poll.values);
      if (done(rows[0])) return performance.now() - started;
      if (poll.deadline && performance.now() - started > poll.deadline.ms) throw new Error(poll.deadline.message);
      await new Promise((r) => setTimeout(r, poll.everyMs ?? 250));
    }
  } finally {
    await client.end();
  }
}

/** Waits until the embedding worker has caught up with every project's items: the milliseconds that took. */
export function embeddingsCaughtUp(databaseUrl: string, deadline?: Deadline): Promise<number> {
  return pollDatabase<{ lag: boolean | null }>(
    databaseUrl,
    { query: 'select bool_or(memory_revision <> embedded_revision) as lag from projects', deadline },
    (row) => !row?.lag,
  );
}
