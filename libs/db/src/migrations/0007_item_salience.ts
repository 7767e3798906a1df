import { sql, type Kysely } from 'kysely';

/**
 * How much an extracted item is worth keeping (0–1), as its engine ranked it: a session keeps
 * only its most salient items. Null for items a person wrote, which no cap displaces. The
 * index serves the read of a session's ranked items at each enrichment window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table memory_items add column salience real`.execute(db);
  await sql`
    create index memory_items_session_salience_idx on memory_items (project_id, session_id)
     where salience is not null and status in ('active', 'stale')`.execute(db);
}
