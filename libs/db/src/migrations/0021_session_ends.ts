import { sql, type Kysely } from 'kysely';

/**
 * Where each session ended, and whether enrichment has read that end. 0020 recorded where a
 * session stopped at every Stop and PreCompact, but Stop can come before a turn's last message
 * is written and PreCompact mid-turn, so a turn read there lacked its conclusion. Now only the
 * client saying the session is over (SessionEnd, `memex import` of a finished transcript) sets
 * `ended_seq`; what 0020 recorded is not that, so it is cleared. `end_read_seq` is the end the
 * enrichment has read as one: a last turn an earlier window left open is read once at the end,
 * even when no event came with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions rename column stopped_seq to ended_seq`.execute(db);
  await sql`update sessions set ended_seq = null where ended_seq is not null`.execute(db);
  await sql`alter table sessions add column end_read_seq bigint`.execute(db);
}
