import { sql, type Kysely } from 'kysely';

/**
 * Hygiene: when each item last changed status (superseded items are archived 30 days after
 * they were superseded, stale ones come back when reinforced after going stale), and the
 * runs, the changes they made or would make, and the proposals they leave for an operator.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('memory_items')
    .addColumn('status_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // An item's last update is the best record there is of when it reached its present status.
  await sql`update memory_items set status_changed_at = updated_at`.execute(db);
  // Every writer (enrichment, people, hygiene, reverts) moves status; a trigger dates each move.
  await sql`
    create function memory_items_date_status() returns trigger language plpgsql as $$
    begin
      new.status_changed_at := now();
      return new;
    end $$`.execute(db);
  await sql`
    create trigger memory_items_date_status before update of status on memory_items
    for each row when (new.status is distinct from old.status)
    execute function memory_items_date_status()`.execute(db);

  await db.schema
    .createTable('hygiene_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('dry-run', 'apply')`))
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('operator', 'schedule')`))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed')`))
    .addColumn('items_scanned', 'integer')
    .addColumn('counts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('hygiene_runs_project_idx').on('hygiene_runs').columns(['project_id', 'id']).execute();

  await db.schema
    .createTable('hygiene_proposals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.notNull().references('hygiene_runs.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('merge', 'edit')`))
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('item_ids', sql`text[]`, (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'applied', 'rejected', 'expired')`))
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Found again by a later pass, a proposal is the same proposal; a rejected one stays rejected.
    .addUniqueConstraint('hygiene_proposals_fingerprint_uq', ['project_id', 'fingerprint'])
    .execute();
  // Which proposals each run found (a later run finds many of the same again).
  await db.schema
    .createTable('hygiene_run_proposals')
    .addColumn('run_id', 'text', (c) => c.notNull().references('hygiene_runs.id').onDelete('cascade'))
    .addColumn('proposal_id', 'text', (c) => c.notNull().references('hygiene_proposals.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('hygiene_run_proposals_pk', ['run_id', 'proposal_id'])
    .execute();

  await db.schema
    .createTable('hygiene_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.references('hygiene_runs.id').onDelete('cascade'))
    .addColumn('proposal_id', 'text', (c) => c.references('hygiene_proposals.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull().references('memory_items.id').onDelete('cascade'))
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb', (c) => c.notNull())
    .addColumn('after', 'jsonb', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('applied', 'boolean', (c) => c.notNull())
    .addColumn('reverted_at', 'timestamptz')
    .addColumn('reverted_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('hygiene_changes_run_idx').on('hygiene_changes').columns(['run_id', 'id']).execute();
  await db.schema.createIndex('hygiene_changes_item_idx').on('hygiene_changes').column('item_id').execute();
}
