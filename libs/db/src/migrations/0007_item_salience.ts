import { sql, type Kysely } from 'kysely';

/**
 * How much an extracted item is worth keeping (0–1), as its engine ranked it: a session keeps
 * only its most salient items. Null for items a person wrote, which no cap displaces. Items
 * extracted before this migration get the worth an unranked engine's items get (importance
 * and confidence), so they compete and can be retracted like the rest. The index serves the
 * read of a session's ranked items at each enrichment window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table memory_items add column salience real`.execute(db);
  // Same rule as salienceOf in @memex/enrichment, for rows written before it existed.
  await sql`
    update memory_items set salience = round((importance / 5.0 * confidence)::numeric, 3)
     where session_id <> 'manual'`.execute(db);
  await sql`
    create index memory_items_session_salience_idx on memory_items (project_id, session_id)
     where salience is not null and status in ('active', 'stale')`.execute(db);
}
