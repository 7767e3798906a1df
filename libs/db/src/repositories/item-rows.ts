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
  return lockItemRowsBy(trx, projectId, 'id', ids);
}

/**
 * A project's items whose `column` holds one of `values` (`superseded_by`: the items that
 * `values` replaced), row-locked like `lockItemRows`, in the same id order.
 */
export function lockItemRowsBy(
  trx: Transaction<DB>,
  projectId: string,
  column: 'id' | 'superseded_by',
  values: string[],
): Promise<Array<Selectable<MemoryItemsTable>>> {
  return trx
    .selectFrom('memory_items')
    .selectAll()
    .where('project_id', '=', projectId)
    .where(column, 'in', values)
    .orderBy('id')
    .forUpdate()
    .execute();
}
