import type { Selectable, Transaction } from 'kysely';
import type { DB, MemoryItemsTable } from '../schema';

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
