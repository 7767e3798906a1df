import { sql, type Kysely } from 'kysely';

/**
 * Reads of the dashboard: a project's sessions newest first, a session's items (and how many
 * it produced), and each hygiene pass's read of the items a person restored from the archive
 * (their latest restore), which keeps the archive rules off them; like the approvals index,
 * only those entries are indexed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index sessions_project_id_idx on sessions (project_id, id)`.execute(db);
  await sql`create index memory_items_project_session_idx on memory_items (project_id, session_id)`.execute(db);
  await sql`
    create index item_history_restore_idx on item_history (project_id, item_id, id)
     where change = 'restore'`.execute(db);
}
