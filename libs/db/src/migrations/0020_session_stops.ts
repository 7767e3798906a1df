import { sql, type Kysely } from 'kysely';

/**
 * Where each session last stopped: its newest event when a hook last completed it (Claude
 * Code's Stop, SessionEnd or PreCompact). A turn that ends there on a tool's event (the session
 * closed mid-work, or the last thing it did was a commit) is over, and the local engine reads it
 * then instead of waiting for a closing message that will not come. Sessions completed before
 * this migration have none: their turns read as they did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column stopped_seq bigint`.execute(db);
}
