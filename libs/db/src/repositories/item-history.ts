import { sql, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { DB, MemoryItemsTable } from '../schema';

type Row = Selectable<MemoryItemsTable>;

/** Who changed an item, as history names them. */
export interface HistoryActor {
  actorType: 'worker' | 'user' | 'rule' | 'operator';
  actor: string;
  runId?: string | null;
}

export interface HistoryRecord extends HistoryActor {
  projectId: string;
  itemId: string;
  /** created, edited, reinforced, superseded, approve, deprecate, resolve, reopen … */
  change: string;
  before: Row | null;
  after: Row;
  reason: string | null;
}

/**
 * Columns history leaves out of an item: what never changes and what is derived. Set-wise
 * writers that build snapshots in SQL (`jsonb - …`) leave out the same ones.
 */
export const UNRECORDED_COLUMNS = ['project_id', 'created_at', 'search_tsv', 'embed_hash'] as const;

/** `- 'project_id' - …`: the same columns taken off an item's `to_jsonb`, for snapshots built in SQL. */
export function unrecordedSql(): RawBuilder<unknown> {
  return sql.join(
    UNRECORDED_COLUMNS.map((c) => sql`- ${sql.lit(c)}`),
    sql` `,
  );
}

/** The item as history keeps it. */
function snapshot(row: Row): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...row };
  for (const column of UNRECORDED_COLUMNS) delete kept[column];
  return kept;
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
