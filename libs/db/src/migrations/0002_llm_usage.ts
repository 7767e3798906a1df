import { sql, type Kysely } from 'kysely';

/** Tokens each project spent on the LLM engine per UTC day: the daily budget reads it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('llm_usage')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('llm_usage_pk', ['project_id', 'day'])
    .execute();
}
