import { sql, type Kysely } from 'kysely';

/**
 * Spend a person can see: a project's model usage per UTC day is kept per engine, with input
 * and output tokens and what it cost (null while no call of the day reported or was priced).
 * And every window sent to a model keeps the model's answer, so a job redelivered after a
 * crash reads it back instead of paying for the same window again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table llm_usage add column engine text not null default 'openai'`.execute(db);
  await sql`alter table llm_usage add column prompt_tokens bigint not null default 0`.execute(db);
  await sql`alter table llm_usage add column completion_tokens bigint not null default 0`.execute(db);
  await sql`alter table llm_usage add column cost_usd double precision`.execute(db);
  await sql`alter table llm_usage drop constraint llm_usage_pk`.execute(db);
  await sql`alter table llm_usage add constraint llm_usage_pk primary key (project_id, day, engine)`.execute(db);
  await db.schema
    .createTable('model_windows')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('input_chars', 'integer', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('cost_usd', 'double precision')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('model_windows_pk', ['session_id', 'first_seq', 'last_seq'])
    .execute();
}
