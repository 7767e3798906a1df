import { sql, type Kysely } from 'kysely';

/**
 * Search: a weighted tsvector over what an item says (kept by a trigger, as array_to_string
 * is not immutable enough for a generated column), and each item's embedding record: which
 * text (its hash) and which model it was embedded with, and the status and type last synced
 * to the vector store, so filters apply there. The vector itself is stored here only by the
 * postgres vector store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('memory_items')
    .addColumn('search_tsv', sql`tsvector`)
    // The hash of the text an embedding is made from: a changed hash means a re-embedding.
    .addColumn('embed_hash', 'text')
    .execute();
  await sql`
    create function memory_items_search_tsv() returns trigger language plpgsql as $$
    begin
      new.search_tsv :=
        setweight(to_tsvector('english', coalesce(new.title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(new.facts, '')), 'B') ||
        setweight(to_tsvector('english', coalesce(new.rationale, '')), 'C') ||
        setweight(to_tsvector('english', array_to_string(new.tags, ' ') || ' ' ||
          regexp_replace(array_to_string(new.files, ' '), '[/._-]+', ' ', 'g')), 'C');
      new.embed_hash := md5(concat_ws(E'\n', new.title, new.facts, new.rationale,
        array_to_string(new.tags, ' '), array_to_string(new.files, ' ')));
      return new;
    end $$`.execute(db);
  await sql`
    create trigger memory_items_search_tsv before insert or update of title, facts, rationale, tags, files
    on memory_items for each row execute function memory_items_search_tsv()`.execute(db);
  await sql`update memory_items set title = title`.execute(db);
  await sql`create index memory_items_search_idx on memory_items using gin (search_tsv)`.execute(db);

  await db.schema
    .createTable('item_embeddings')
    .addColumn('item_id', 'text', (c) => c.primaryKey().references('memory_items.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('vector', 'bytea')
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The project's vector generation of the sync that wrote the row: a reader holding
    // generation g reads only rows past it. Syncs of a project take their generation under
    // the project row's lock, so generations commit in order and none is skipped.
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('item_embeddings_project_generation_idx')
    .on('item_embeddings')
    .columns(['project_id', 'generation'])
    .execute();
  // The memory revision the embeddings last caught up with: a project behind it needs a sync.
  await db.schema
    .alterTable('projects')
    .addColumn('embedded_revision', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('vector_generation', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
