import type { Selectable, Transaction } from 'kysely';
import type { DB, MemoryItemsTable } from '../schema';

type Row = Selectable<MemoryItemsTable>;

export interface HistoryRecord {
  projectId: string;
  itemId: string;
  /** created, edited, reinforced, superseded, approve, deprecate, resolve, reopen … */
  change: string;
  before: Row | null;
  after: Row;
  actorType: 'worker' | 'user' | 'rule' | 'operator';
  actor: string;
  reason: string | null;
  runId?: string | null;
}

/** The item as history keeps it: everything but what never changes and the derived search vector. */
function snapshot(row: Row): Record<string, unknown> {
  const { project_id: _p, created_at: _c, search_tsv: _s, embed_hash: _h, ...rest } = row;
  return rest;
}

/** One entry of item history, in the transaction that made the change. */
export async function recordHistory(trx: Transaction<DB>, r: HistoryRecord): Promise<void> {
  await trx
    .insertInto('item_history')
    .values({
      project_id: r.projectId,
      item_id: r.itemId,
      change: r.change,
      before: r.before && JSON.stringify(snapshot(r.before)),
      after: JSON.stringify(snapshot(r.after)),
      actor_type: r.actorType,
      actor: r.actor,
      reason: r.reason,
      run_id: r.runId ?? null,
    })
    .execute();
}
