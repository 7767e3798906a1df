import { sql, type Kysely } from 'kysely';

/**
 * The project's entities (files, symbols, packages, error signatures, tasks) and how they
 * relate, filled by the enrichment worker from the events it has read and the items it wrote.
 *
 * - entity_mentions: which events named an entity, once each, so a window read again does not
 *   count twice; `edited` marks the edits a session made, for files edited together.
 * - entity_relations: weighted edges; relation_sessions makes the weight count sessions.
 * - item_entities: which items name an entity; salience counts only the live ones at read.
 * - error_occurrences: each failure's signature and the fix that followed it, for patterns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table entities (
      id bigserial primary key,
      project_id text not null references projects(id) on delete cascade,
      kind text not null,
      name text not null,
      -- The last path segment of a file, lower case: what a query names a file by.
      base text not null,
      mentions integer not null default 0,
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null,
      unique (project_id, kind, name)
    )`.execute(db);
  await sql`create index entities_project_base_idx on entities (project_id, base)`.execute(db);
  await sql`create index entities_project_salient_idx on entities (project_id, mentions desc, last_seen_at desc)`.execute(
    db,
  );

  await sql`
    create table entity_mentions (
      entity_id bigint not null references entities(id) on delete cascade,
      project_id text not null references projects(id) on delete cascade,
      session_id text not null,
      event_id text not null,
      occurred_at timestamptz not null,
      edited boolean not null default false,
      primary key (entity_id, session_id, event_id)
    )`.execute(db);
  await sql`
    create index entity_mentions_session_edited_idx on entity_mentions (project_id, session_id)
     where edited`.execute(db);

  await sql`
    create table entity_relations (
      project_id text not null references projects(id) on delete cascade,
      source_id bigint not null references entities(id) on delete cascade,
      target_id bigint not null references entities(id) on delete cascade,
      kind text not null,
      weight real not null default 0,
      last_seen_at timestamptz not null,
      primary key (source_id, target_id, kind)
    )`.execute(db);
  await sql`create index entity_relations_target_idx on entity_relations (target_id)`.execute(db);
  await sql`
    create table relation_sessions (
      source_id bigint not null references entities(id) on delete cascade,
      target_id bigint not null references entities(id) on delete cascade,
      kind text not null,
      session_id text not null,
      primary key (source_id, target_id, kind, session_id)
    )`.execute(db);

  await sql`
    create table item_entities (
      project_id text not null references projects(id) on delete cascade,
      item_id text not null references memory_items(id) on delete cascade,
      entity_id bigint not null references entities(id) on delete cascade,
      primary key (item_id, entity_id)
    )`.execute(db);
  await sql`create index item_entities_entity_idx on item_entities (entity_id)`.execute(db);

  await sql`
    create table error_occurrences (
      project_id text not null references projects(id) on delete cascade,
      session_id text not null,
      event_id text not null,
      signature text not null,
      occurred_at timestamptz not null,
      command text,
      fix text,
      fix_event_ids text[] not null default '{}',
      primary key (project_id, session_id, event_id)
    )`.execute(db);
  await sql`create index error_occurrences_signature_idx on error_occurrences (project_id, signature)`.execute(db);
}
