import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB, MemoryItemsTable } from '../schema';

/**
 * The project's item lock, for the transaction: every writer of a project's items as a set
 * (enrichment windows, hygiene passes, operator decisions) takes it before anything else.
 */
export async function lockProjectItems(trx: Transaction<DB>, projectId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`memex:items:${projectId}`}))`.execute(trx);
}

/** A project's items of `ids`, row-locked for the transaction, in id order (so lockers never deadlock). */
export function lockItemRows(
  trx: Transaction<DB>,
  projectId: string,
  ids: string[],
): Promise<Array<Selectable<MemoryItemsTable>>> {
  return trx
    .selectFrom('memory_items')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}
