import { sql, type Kysely } from 'kysely';

/**
 * Where each session ended: its newest event when the client last said so (Claude Code's
 * SessionEnd hook, `memex import` of a whole transcript). A turn that ends there on a tool's
 * event (the session closed mid-work, or its last act was a commit with nothing said after it)
 * gets no closing message, and the local engine reads it then instead of waiting for one.
 * Sessions that ended before this migration have none: their turns read as they did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column ended_seq bigint`.execute(db);
}
