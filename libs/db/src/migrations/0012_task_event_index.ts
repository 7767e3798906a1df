import { sql, type Kysely } from 'kysely';

/**
 * A session's task calls (TodoWrite, Task, Agent …) by tool: every prompt's context pack reads
 * them to build the session's task stack, and without this it would scan the whole session's
 * events and their metadata to find them. And a one-column key for error occurrences.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index raw_events_session_tool_idx on raw_events (session_id, (metadata->>'tool'), seq)
     where metadata->>'tool' is not null`.execute(db);
  // A key of one column, so `memex redact` can page through error occurrences as through any table.
  await sql`alter table error_occurrences add column id bigserial`.execute(db);
  await sql`create unique index error_occurrences_id_idx on error_occurrences (id)`.execute(db);
}
