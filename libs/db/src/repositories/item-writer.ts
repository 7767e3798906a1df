import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { newId } from '@memex/domain';
import type { DB, MemoryItemsTable } from '../schema';
import type { ItemChanges } from './item-changes';
import { recordHistory, type HistoryActor } from './item-history';
import { lockProjectItems } from './item-rows';
import { bumpRevision } from './revision';

type Row = Selectable<MemoryItemsTable>;
export type NewItemRow = Omit<Insertable<MemoryItemsTable>, 'id' | 'project_id' | 'updated_at'>;

/**
 * The one way a project's memory items change. Opened in a transaction, it takes the
 * project's item lock (before any item row, the order every writer keeps), writes each
 * change with its history entry, and at the end bumps the project's revision once if anything
 * changed. `itemTransaction` announces the change after the commit.
 */
export class ItemWriter {
  private changes = 0;

  private constructor(
    readonly trx: Transaction<DB>,
    readonly projectId: string,
    private readonly actor: HistoryActor,
  ) {}

  static async open(trx: Transaction<DB>, projectId: string, actor: HistoryActor): Promise<ItemWriter> {
    await lockProjectItems(trx, projectId);
    // The project row, whose revision `close` bumps, is locked now, before any item row: the
    // embedding sync locks it (its vector generation) before it touches items (a key-share
    // lock for its foreign key), and the other order deadlocks against it.
    await trx.selectFrom('projects').select('id').where('id', '=', projectId).forNoKeyUpdate().execute();
    return new ItemWriter(trx, projectId, actor);
  }

  get changed(): boolean {
    return this.changes > 0;
  }

  async insert(values: NewItemRow, reason: string | null): Promise<Row> {
    const row = await this.trx
      .insertInto('memory_items')
      .values({ ...values, id: newId(), project_id: this.projectId, updated_at: new Date() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.record(row.id, 'created', null, row, reason);
    return row;
  }

  /**
   * Sets `set` on the item `before` was read as (locked by the caller), with a history entry
   * `change`. An edit of what the item says moves `updated_at`; a status move or a link does
   * not (the age rules count from edits), so callers say which it is.
   */
  async update(
    before: Row,
    set: Updateable<MemoryItemsTable>,
    change: string,
    reason: string | null,
    options: {
      edit?: boolean;
      runId?: string | null;
      /** A redaction: what the item said before held a secret, so history keeps only the after. */
      forgetBefore?: boolean;
    } = {},
  ): Promise<Row> {
    const after = await this.trx
      .updateTable('memory_items')
      .set(options.edit === false ? set : { ...set, updated_at: new Date() })
      .where('id', '=', before.id)
      .where('project_id', '=', this.projectId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.record(before.id, change, options.forgetBefore ? null : before, after, reason, options.runId);
    return after;
  }

  /** Deletes an item for good: its history and changes go with it (the foreign keys cascade). */
  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('memory_items').where('id', '=', id).where('project_id', '=', this.projectId).execute();
    this.changes += 1;
  }

  /** Changes written by a set-wise statement of the caller's (a hygiene pass's moves), history included. */
  countChanges(n: number): void {
    this.changes += n;
  }

  /** Bumps the revision once for everything written. */
  async close(): Promise<void> {
    if (this.changed) await bumpRevision(this.trx, this.projectId);
  }

  private async record(
    itemId: string,
    change: string,
    before: Row | null,
    after: Row,
    reason: string | null,
    runId?: string | null,
  ) {
    await recordHistory(this.trx, {
      projectId: this.projectId,
      itemId,
      change,
      before,
      after,
      ...this.actor,
      ...(runId !== undefined ? { runId } : {}),
      reason,
    });
    this.changes += 1;
  }
}

/**
 * A transaction whose item writes go through writers of `ItemWriter` (one per project it
 * opens), closed before the commit and announced after it.
 */
export async function itemTransaction<T>(
  db: Kysely<DB>,
  changes: ItemChanges,
  work: (open: (projectId: string, actor: HistoryActor) => Promise<ItemWriter>, trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  const writers: ItemWriter[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const out = await work(async (projectId, actor) => {
      const writer = await ItemWriter.open(trx, projectId, actor);
      writers.push(writer);
      return writer;
    }, trx);
    for (const writer of writers) await writer.close();
    return out;
  });
  changes.announce(writers.filter((w) => w.changed).map((w) => w.projectId));
  return result;
}
