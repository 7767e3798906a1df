import { sql, type Kysely } from 'kysely';

/**
 * The items' full-text index takes new entries straight into its tree. With GIN's default
 * fast update, entries first wait in a pending list (up to 4 MB) until a vacuum or the list's
 * limit moves them, and every search reads that list whole: at 10,000 freshly written items a
 * one-word lookup took 7.5 ms through the index instead of 0.02 ms, so the planner read the
 * whole table instead. Items are written a few per enrichment window and searched on every
 * prompt, so the insert pays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter index memory_items_search_idx set (fastupdate = off)`.execute(db);
  // Turning it off keeps what the list already holds; this moves it into the tree.
  await sql`select gin_clean_pending_list('memory_items_search_idx'::regclass)`.execute(db);
}
