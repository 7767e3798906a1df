import { sql, type Kysely } from 'kysely';

/**
 * How far each session's events have reached the entity store. The store is filled after a
 * window's items are committed, and a failure there (a lost connection) used to be logged and
 * forgotten, for good when it was the session's last window. With a cursor of its own, what
 * is behind is found and read again. Sessions enriched before this migration count as read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table entity_cursors (
      session_id text primary key,
      project_id text not null,
      seq bigint not null
    )`.execute(db);
  await sql`
    insert into entity_cursors (session_id, project_id, seq)
    select id, project_id, enrichment_cursor from sessions where enrichment_cursor > 0`.execute(db);
}
