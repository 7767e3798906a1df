import { sql, type Kysely } from 'kysely';

// Migrations are forward-only: there is no `down`. A mistake is fixed by a new migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('memory_revision', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_project_idx').on('api_keys').column('project_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('branch', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_event_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_event_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('enrichment_cursor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', 'timestamptz')
    .addUniqueConstraint('sessions_project_external_uq', ['project_id', 'external_id'])
    .execute();
  // The reconciler's scan: sessions whose newest event is past their cursor.
  await db.schema
    .createIndex('sessions_lagging_idx')
    .on('sessions')
    .column('last_event_at')
    .where(sql.ref('last_event_seq'), '>', sql.ref('enrichment_cursor'))
    .execute();

  await db.schema
    .createTable('raw_events')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    // No foreign keys on this append-only, high-volume table: the one statement that writes
    // it takes session_id from the session it upserts and project_id from the caller's key,
    // and per-row key checks would share-lock the project row from every concurrent batch.
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('raw_events_project_event_uq', ['project_id', 'event_id'])
    .execute();
  // The enrichment worker reads a session's events past its cursor, in order.
  await db.schema.createIndex('raw_events_session_seq_idx').on('raw_events').columns(['session_id', 'seq']).execute();
  // Keeps sessions.last_event_seq current for any insert path, once per statement: the
  // ingest write stays a single statement, and the reconciler compares two columns.
  await sql`
    create function raw_events_advance_session() returns trigger language plpgsql as $$
    begin
      update sessions s
         set last_event_seq = greatest(s.last_event_seq, n.max_seq)
        from (select session_id, max(seq) as max_seq from new_events group by session_id) n
       where s.id = n.session_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger raw_events_advance_session after insert on raw_events
    referencing new table as new_events
    for each statement execute function raw_events_advance_session()`.execute(db);

  await db.schema
    .createTable('memory_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .addColumn('rationale', 'text')
    .addColumn('impact', 'text')
    .addColumn('files', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('schema_key', 'text', (c) => c.notNull())
    .addColumn('commit_range', 'text')
    .addColumn('confidence', 'double precision', (c) => c.notNull().check(sql`confidence >= 0 and confidence <= 1`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('active', 'stale', 'review', 'superseded', 'archived')`),
    )
    .addColumn('evidence_refs', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('evidence_spans', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('dedup_hint', 'text')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('importance', 'smallint', (c) => c.check(sql`importance between 1 and 5`))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('merged_from', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('superseded_by', 'text', (c) => c.references('memory_items.id'))
    .addColumn('last_reinforced_at', 'timestamptz')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('memory_items_project_status_idx')
    .on('memory_items')
    .columns(['project_id', 'status'])
    .execute();
  await db.schema
    .createIndex('memory_items_project_dedup_idx')
    .on('memory_items')
    .columns(['project_id', 'dedup_hint'])
    .where('dedup_hint', 'is not', null)
    .execute();
  await db.schema
    .createIndex('memory_items_project_schema_key_idx')
    .on('memory_items')
    .expression(sql`project_id, schema_key text_pattern_ops`)
    .execute();
  await db.schema
    .createIndex('memory_items_project_updated_idx')
    .on('memory_items')
    .columns(['project_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('item_history')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull().references('memory_items.id').onDelete('cascade'))
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('run_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('item_history_item_idx').on('item_history').columns(['item_id', 'id']).execute();
  await db.schema
    .createIndex('item_history_run_idx')
    .on('item_history')
    .column('run_id')
    .where('run_id', 'is not', null)
    .execute();
}
