import { sql, type Kysely } from 'kysely';

/**
 * Model calls in flight, each holding its estimated spend against the project's daily budgets
 * until it returns: without them, every worker checked the day's spend before its call, all of
 * them passed at once, and the budget overshot by up to the worker's concurrency. A hold that
 * outlives its call (a process killed mid-call) stops counting when it expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table model_reservations (
      id bigserial primary key,
      project_id text not null,
      day text not null,
      tokens bigint not null,
      cost_usd double precision,
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index model_reservations_project_day_idx on model_reservations (project_id, day)`.execute(db);
}
