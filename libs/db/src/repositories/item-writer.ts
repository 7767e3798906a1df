import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { newId } from '@memex/domain';
import type { DB, MemoryItemsTable } from '../schema';
import type { ItemChanges } from './item-changes';
import { recordHistory, unrecordedSql, type HistoryActor } from './item-history';
import { lockProjectItems } from './item-rows';
import { bumpRevision } from './revision';

type Row = Selectable<MemoryItemsTable>;
export type NewItemRow = Omit<Insertable<MemoryItemsTable>, 'id' | 'project_id' | 'updated_at'>;

/** Opens the writer of a project's items inside an item transaction (`itemTransaction`). */
export type OpenItemWriter = (projectId: string, actor: HistoryActor) => Promise<ItemWriter>;

/** A status move a pass decided set-wise, made only if the item is still as the pass read it. */
export interface StatusMove {
  itemId: string;
  from: string;
  to: string;
  /** The item's `updated_at` (epoch ms) when the pass read it. */
  updatedMs: number | null;
  /** Who decided it, as history names them (a hygiene rule). */
  actor: string;
  reason: string;
}

/** `- 'col' - 'col' …`: the columns item history leaves out, taken off a row's jsonb. */
const unrecorded = unrecordedSql();

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

  /**
   * Many status moves in one statement (a hygiene pass makes thousands), each with its history
   * entry, the whole item before and after as `update` records it. A move is made only while the
   * item's status and last update are what the pass read: one that enrichment or a person
   * touched meanwhile is skipped, and the next pass judges it afresh. Returns the moves made.
   */
  async moveStatuses(moves: readonly StatusMove[]): Promise<StatusMove[]> {
    if (moves.length === 0) return [];
    const planned = moves.map((m) => ({
      item_id: m.itemId,
      from_status: m.from,
      to_status: m.to,
      updated_ms: m.updatedMs,
      actor: m.actor,
      reason: m.reason,
    }));
    const { rows } = await sql<{ item_id: string }>`
      with old as materialized (
        select m.id, p.to_status, p.actor, p.reason, to_jsonb(m) ${unrecorded} as snapshot
          from json_to_recordset(${JSON.stringify(planned)}::json) as p(
                 item_id text, from_status text, to_status text, updated_ms float8, actor text, reason text)
          join memory_items m on m.id = p.item_id
         where m.project_id = ${this.projectId} and m.status = p.from_status
           and (extract(epoch from m.updated_at) * 1000)::float8 = p.updated_ms
      ), moved as (
        -- Each moved row is found by its id in what was read: the plan list is joined once, by
        -- the primary key. Joined to the read rows again, every row scanned the whole plan.
        update memory_items m set status = o.to_status
          from old o
         where m.id = o.id
        returning o.id as item_id, o.actor, o.reason, o.snapshot as before, to_jsonb(m) ${unrecorded} as after
      ), history as (
        insert into item_history (project_id, item_id, change, before, after, actor_type, actor, reason, run_id)
        select ${this.projectId}, item_id, 'status', before, after, ${this.actor.actorType}, actor, reason,
               ${this.actor.runId ?? null}
          from moved
      )
      select item_id from moved`.execute(this.trx);
    this.changes += rows.length;
    const moved = new Set(rows.map((r) => r.item_id));
    return moves.filter((m) => moved.has(m.itemId));
  }

  /**
   * Rewrites what one of the project's history entries says (`memex redact` taking a secret out
   * of it): its snapshots and reason, never who made the change or when. Not a change to the
   * items, so the revision stays. False when the project has no such entry.
   */
  async rewriteHistory(entryId: string, set: Readonly<Record<string, unknown>>): Promise<boolean> {
    const json = (value: unknown) => (value === null ? sql`null` : sql`${JSON.stringify(value)}::jsonb`);
    const assignments = Object.entries(set).map(([column, value]) => {
      if (column === 'before' || column === 'after') return sql`${sql.ref(column)} = ${json(value)}`;
      if (column === 'reason') return sql`reason = ${value === null ? null : String(value)}`;
      // Who made a change and when are never rewritten.
      throw new Error(`item history has no rewritable column ${column}`);
    });
    if (assignments.length === 0) return false;
    // History is append-only everywhere else, so its table type allows no update: this one is raw.
    const { rows } = await sql`
      update item_history set ${sql.join(assignments)}
       where id = ${entryId}::bigint and project_id = ${this.projectId}
      returning 1`.execute(this.trx);
    return rows.length > 0;
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
  work: (open: OpenItemWriter, trx: Transaction<DB>) => Promise<T>,
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
