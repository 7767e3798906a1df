import { sql, type Kysely } from 'kysely';

/**
 * Each hygiene pass reads the items an operator approved out of review (their latest
 * approval), so the conflict rule does not send them back: an index over just those entries
 * keeps that read off the rest of a project's history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index item_history_approve_idx on item_history (project_id, item_id, id)
     where change = 'approve'`.execute(db);
}
