import { sql, type Kysely } from 'kysely';

/**
 * The full-text indexes that requests read (the items', searched on every query and pack; the
 * error entities' words, read by every pack for patterns seen before) take new entries straight
 * into their tree. With GIN's default fast update, entries first wait in a pending list (up to
 * 4 MB) until a vacuum or the list's limit moves them, and every lookup reads that list whole:
 * at 10,000 freshly written items a one-word lookup took 7.5 ms through the index instead of
 * 0.02 ms, so the planner read the whole table instead, and after 100,000 events the packs'
 * error lookup went from 0.15 to 8.4 ms. Both are written a few rows per enrichment window and
 * read on every prompt, so the write pays.
 */
const INDEXES = ['memory_items_search_idx', 'entities_error_words_idx'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of INDEXES) {
    await sql`alter index ${sql.ref(index)} set (fastupdate = off)`.execute(db);
    // Turning it off keeps what the list already holds; this moves it into the tree.
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}
