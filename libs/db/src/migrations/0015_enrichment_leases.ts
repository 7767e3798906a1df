import { sql, type Kysely } from 'kysely';

/**
 * Who is enriching a session right now. The delayed job and the session-complete job of one
 * session used to read the same window at once, each paying for a model call, and the slower
 * answer was thrown away at the cursor check. A lease lets one run read a session at a time;
 * it expires on its own, so a run that died holds nothing for long. No foreign key to
 * sessions: taking a lease must not wait on the session row, which a window's write locks;
 * every run deletes its lease when it stops, and a dead run's is taken over when it expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table enrichment_leases (
      session_id text primary key,
      owner text not null,
      expires_at timestamptz not null
    )`.execute(db);
}
