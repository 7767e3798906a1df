import { sql, type Kysely } from 'kysely';

/**
 * Context packs whose cost does not grow with history (issue 30). Two reads of a pack used
 * to: error patterns were found by `ilike '%word%'` over every error occurrence the project
 * ever had, and an entity's live items were counted by a join the planner could turn into a
 * scan of every project's items.
 *
 * - `memex_error_words` is what an error signature is found by, in the English configuration:
 *   its words, its dotted names whole and at the dots (`totalsGuard.map` is found by
 *   `totalsguard.map` and by `totalsguard`: a query's keywords are lower case, so camelCase no
 *   longer splits them), and the parts of its code names (`memex_code_words`, as items). Indexed
 *   on error entities, one row per signature and project, not per occurrence. Plain SQL and
 *   built-in full text, so PGlite runs it as PostgreSQL does (pg_trgm is an extension there).
 * - Items naming an entity by (entity_id, item_id): item ids are ULIDs, so an entity's newest
 *   items come first off the index, and a count or a pick can stop early.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL 17 (PGlite's) builds an index with search_path set to pg_catalog alone, so the
  // body names memex_code_words by the schema the migrations run in.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const codeWords = sql`${sql.id(rows[0]!.schema)}.memex_code_words`;
  await sql`
    create function memex_error_words(signature text) returns tsvector language sql immutable parallel safe as $$
      select to_tsvector('english',
        signature || ' ' || regexp_replace(signature, '[./:]+', ' ', 'g') || ' ' || ${codeWords}(signature))
    $$`.execute(db);
  await sql`create index entities_error_words_idx on entities using gin (memex_error_words(name)) where kind = 'error'`.execute(
    db,
  );
  await sql`create index item_entities_entity_item_idx on item_entities (entity_id, item_id)`.execute(db);
  // The new index leads with the same column.
  await sql`drop index item_entities_entity_idx`.execute(db);
}
