import { Inject, Injectable } from '@nestjs/common';
import { LINE_ROOM, WIDEST_ROOM } from '@memex/brain';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  DomainError,
  MANUAL_SESSION_ID,
  evidenceRefsOf,
  PROPOSAL_MOVES,
  type CreateItemBody,
  type HistoryEntryView,
  type ItemUpdate,
  type ItemStatus,
  type ListItemsQuery,
  type MemoryItem,
} from '@memex/domain';
import type { DB, MemoryItemsTable } from '../schema';
import type { Pool } from 'pg';
import { retryOnConnectionLoss } from '../connection-loss';
import { KYSELY, PG_POOL } from '../tokens';
import { ItemChanges } from './item-changes';
import { itemTransaction, type ItemWriter } from './item-writer';
import { lockItemRows, lockItemRowsBy } from './item-rows';
import { toMemoryItem } from './memory-item.mapper';

/** An item's history entry as read, before its date is written as JSON (HistoryEntryView). */
export type HistoryEntry = Omit<HistoryEntryView, 'createdAt'> & { createdAt: Date };

/** The columns a person's update writes. */
function updateColumns(update: ItemUpdate) {
  const { schemaKey, resolvedAt, supersededBy, ...same } = update;
  return {
    ...same,
    ...(schemaKey !== undefined ? { schema_key: schemaKey } : {}),
    ...(resolvedAt !== undefined ? { resolved_at: resolvedAt } : {}),
    ...(supersededBy !== undefined ? { superseded_by: supersededBy } : {}),
  };
}

/**
 * The items of one person's change, locked in its transaction: the caller decides each
 * item's update from what `lock` returns (the pure rules of @memex/domain), then writes it.
 */
export class ItemEditTransaction {
  private readonly rows = new Map<string, Selectable<MemoryItemsTable>>();

  constructor(
    private readonly writer: ItemWriter,
    private readonly who: { actor: string; reason: string | null },
  ) {}

  /** The project's items of `ids`, locked; an unknown id (or another project's) is a 404. */
  async lock(ids: string[]): Promise<MemoryItem[]> {
    const rows = await lockItemRows(this.writer.trx, this.writer.projectId, ids);
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length > 0) {
      throw new DomainError('ITEM_NOT_FOUND', `no item ${missing[0]} in this project`, { ids: missing });
    }
    for (const row of rows) this.rows.set(row.id, row);
    return rows.map(toMemoryItem);
  }

  /** Writes an update of a locked item, with its history entry named `change`. */
  async update(itemId: string, update: ItemUpdate, change: string): Promise<MemoryItem> {
    const before = this.rows.get(itemId);
    if (!before) throw new Error(`item ${itemId} was not locked in this transaction`);
    const after = await this.writer.update(before, updateColumns(update), change, this.who.reason);
    this.rows.set(itemId, after);
    return toMemoryItem(after);
  }
}

const SEPARATOR = '\u001f';

/** Text matched literally inside a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, '\\$&');
/** Longer than the brain renders (its usual room), so a cut here always shows as one there. */
const FACTS_READ = LINE_ROOM.facts + 20;
const RATIONALE_READ = LINE_ROOM.rationale + 20;
/**
 * A project this small may fit whole in a brain, whose lines then widen (`assembleBrain`), so
 * its text is read up to the widest room. A larger one fills the brain at the usual room, and
 * reading more of 50,000 items' text would only cost memory.
 */
const WHOLE_TEXT_UP_TO = 250;
const WIDE = { facts: LINE_ROOM.facts * WIDEST_ROOM + 20, rationale: LINE_ROOM.rationale * WIDEST_ROOM + 20 };
const FOR_BRAIN_SQL = `
  with small as (
    select count(*) <= ${WHOLE_TEXT_UP_TO} as yes
      from (select 1 from memory_items
             where project_id = $1 and status in ('active', 'stale') limit ${WHOLE_TEXT_UP_TO + 1}) live
  )
  select id, type, title,
         left(facts, case when small.yes then ${WIDE.facts + 1} else ${FACTS_READ + 1} end),
         left(rationale, case when small.yes then ${WIDE.rationale + 1} else ${RATIONALE_READ + 1} end),
         array_to_string(files, E'\\x1f'),
         schema_key, confidence, status, dedup_hint, array_to_string(tags, E'\\x1f'), importance,
         (extract(epoch from updated_at) * 1000)::float8,
         (extract(epoch from last_reinforced_at) * 1000)::float8,
         (extract(epoch from resolved_at) * 1000)::float8,
         small.yes
    from memory_items, small
   where project_id = $1 and status in ('active', 'stale')`;
const ARCHIVED_COUNT_SQL = `
  select count(*)::int as n from memory_items where project_id = $1 and status in ('superseded', 'archived')`;

/** Reads and changes of items on behalf of people and operators (the brain API). */
@Injectable()
export class MemoryItemAdminRepository {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly itemChanges: ItemChanges,
  ) {}

  /**
   * The items the brain may show (active and stale), and how many the archive holds. Only
   * what the brain renders is read, text cut to the length it shows, times as numbers and
   * arrays as strings: a 50,000-item project is one quick prepared query.
   */
  async forBrain(projectId: string): Promise<{ items: MemoryItem[]; archived: number }> {
    // Prepared statements on the pool, not through Kysely: reads, so retried here as Kysely's are.
    const [live, archived] = await Promise.all([
      retryOnConnectionLoss(() =>
        this.pool.query<unknown[]>({
          name: 'memory-items.for-brain',
          text: FOR_BRAIN_SQL,
          values: [projectId],
          rowMode: 'array',
        }),
      ),
      retryOnConnectionLoss(() =>
        this.pool.query<{ n: number }>({
          name: 'memory-items.archived-count',
          text: ARCHIVED_COUNT_SQL,
          values: [projectId],
        }),
      ),
    ]);
    // The query reads one character more than it keeps, so a cut is known, and shown as "…"
    // even when folding its whitespace makes the text short again.
    const marked = (text: string, read: number) => (text.length > read ? `${text.slice(0, read)}…` : text);
    const split = (joined: unknown) => (typeof joined === 'string' && joined.length > 0 ? joined.split(SEPARATOR) : []);
    const at = (epochMs: unknown) => (epochMs === null ? null : new Date(epochMs as number));
    const items = live.rows.map((r): MemoryItem => {
      const updatedAt = new Date(r[12] as number);
      const read = r[15] ? WIDE : { facts: FACTS_READ, rationale: RATIONALE_READ };
      return {
        itemId: r[0] as string,
        projectId,
        type: r[1] as MemoryItem['type'],
        title: r[2] as string,
        facts: marked(r[3] as string, read.facts),
        rationale: r[4] === null ? null : marked(r[4] as string, read.rationale),
        impact: null,
        files: split(r[5]),
        schemaKey: r[6] as string,
        commitRange: null,
        confidence: r[7] as number,
        status: r[8] as ItemStatus,
        evidenceRefs: [],
        evidenceSpans: [],
        dedupHint: r[9] as string | null,
        tags: split(r[10]),
        importance: r[11] as number | null,
        salience: null,
        sessionId: '',
        mergedFrom: [],
        supersededBy: null,
        lastReinforcedAt: at(r[13]),
        resolvedAt: at(r[14]),
        createdAt: updatedAt,
        updatedAt,
      };
    });
    return { items, archived: archived.rows[0]?.n ?? 0 };
  }

  /**
   * The project's memory revision, bumped by every change to its items: the brain cache key
   * derives from it. Prepared, since every brain revalidation runs it and reads nothing else.
   */
  async revision(projectId: string): Promise<number> {
    const { rows } = await retryOnConnectionLoss(() =>
      this.pool.query<{ memory_revision: number }>({
        name: 'projects.memory-revision',
        text: 'select memory_revision from projects where id = $1',
        values: [projectId],
      }),
    );
    return rows[0]?.memory_revision ?? 0;
  }

  /** Newest first, by id (ULIDs sort by creation); `cursor` is the last id of the previous page. */
  async list(projectId: string, q: ListItemsQuery): Promise<{ items: MemoryItem[]; nextCursor: string | null }> {
    let query = this.db.selectFrom('memory_items').selectAll().where('project_id', '=', projectId);
    if (q.type) query = query.where('type', '=', q.type);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.schemaKey) query = query.where('schema_key', 'like', `${likeEscaped(q.schemaKey)}%`);
    if (q.minConfidence !== undefined) query = query.where('confidence', '>=', q.minConfidence);
    if (q.text) {
      const pattern = `%${likeEscaped(q.text)}%`;
      query = query.where((eb) => eb.or([eb('title', 'ilike', pattern), eb('facts', 'ilike', pattern)]));
    }
    if (q.tag) query = query.where(sql<boolean>`tags @> array[${q.tag}]::text[]`);
    if (q.file) {
      const pattern = `%${likeEscaped(q.file)}%`;
      query = query.where(sql<boolean>`exists (select 1 from unnest(files) as f where f ilike ${pattern})`);
    }
    if (q.sessionId) query = query.where('session_id', '=', q.sessionId);
    if (q.updatedAfter) query = query.where('updated_at', '>=', new Date(q.updatedAfter));
    if (q.updatedBefore) query = query.where('updated_at', '<', new Date(q.updatedBefore));
    if (q.cursor) query = query.where('id', '<', q.cursor);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(q.limit + 1)
      .execute();
    const page = rows.slice(0, q.limit).map(toMemoryItem);
    return { items: page, nextCursor: rows.length > q.limit ? page[page.length - 1]!.itemId : null };
  }

  async get(projectId: string, itemId: string): Promise<{ item: MemoryItem; history: HistoryEntry[] }> {
    const row = await this.db
      .selectFrom('memory_items')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', itemId)
      .executeTakeFirst();
    if (!row) throw new DomainError('ITEM_NOT_FOUND', `no item ${itemId} in this project`, { id: itemId });
    const history = await this.db
      .selectFrom('item_history')
      .selectAll()
      .where('item_id', '=', itemId)
      .orderBy('id')
      .execute();
    return {
      item: toMemoryItem(row),
      history: history.map((h) => ({
        id: h.id,
        change: h.change,
        before: h.before,
        after: h.after,
        actorType: h.actor_type,
        actor: h.actor,
        reason: h.reason,
        runId: h.run_id,
        createdAt: h.created_at,
      })),
    };
  }

  /** One person's change of items, in one transaction: all of it is written, or none. */
  edit<T>(
    projectId: string,
    who: { actor: string; reason: string | null },
    work: (tx: ItemEditTransaction) => Promise<T>,
  ): Promise<T> {
    return itemTransaction(this.db, this.itemChanges, async (open) =>
      work(new ItemEditTransaction(await open(projectId, { actorType: 'user', actor: who.actor }), who)),
    );
  }

  /**
   * Deletes an item for good, with its history, its hygiene changes and its embedding (the
   * foreign keys cascade): deleting is for what must not be kept, archiving for what is no
   * longer worth showing. Items it replaced stay as they are but stop pointing at it (a
   * history entry each says why), pending proposals naming it expire, and the revision moves
   * so the brain follows. Under the project's item lock, as every writer of items as a set.
   */
  async delete(
    projectId: string,
    itemId: string,
    who: { actor: string; reason: string | null },
  ): Promise<{ itemId: string; unlinked: string[]; expiredProposals: number }> {
    return itemTransaction(this.db, this.itemChanges, async (open, trx) => {
      const writer = await open(projectId, { actorType: 'user', actor: who.actor });
      const [row] = await lockItemRows(trx, projectId, [itemId]);
      if (!row) throw new DomainError('ITEM_NOT_FOUND', `no item ${itemId} in this project`, { id: itemId });
      const replaced = await lockItemRowsBy(trx, projectId, 'superseded_by', [itemId]);
      for (const before of replaced) {
        const why = `the item that replaced it (${itemId}) was deleted`;
        // Not an edit of what the item says: its age stays what it was.
        await writer.update(before, { superseded_by: null }, 'unlinked', who.reason ? `${why}: ${who.reason}` : why, {
          edit: false,
        });
      }
      const expired = await trx
        .updateTable('hygiene_proposals')
        .set({ status: PROPOSAL_MOVES.lost.to })
        .where('project_id', '=', projectId)
        .where('status', 'in', [...PROPOSAL_MOVES.lost.from])
        .where(sql<boolean>`${itemId} = any(item_ids)`)
        .executeTakeFirst();
      await writer.delete(itemId);
      return {
        itemId,
        unlinked: replaced.map((r) => r.id),
        expiredProposals: Number(expired.numUpdatedRows),
      };
    });
  }

  async create(
    projectId: string,
    body: CreateItemBody & {
      schemaKey: string;
      dedupHint: string | null;
      /** The session whose words show it (an assistant's memory); items a person wrote have none. */
      sessionId?: string;
      salience?: number;
    },
    who: { actor: string; reason: string | null },
  ): Promise<MemoryItem> {
    return itemTransaction(this.db, this.itemChanges, async (open) => {
      const writer = await open(projectId, { actorType: 'user', actor: who.actor });
      const row = await writer.insert(
        {
          type: body.type,
          title: body.title,
          facts: body.facts,
          rationale: body.rationale,
          impact: body.impact,
          files: body.files,
          schema_key: body.schemaKey,
          confidence: body.confidence,
          status: 'active',
          evidence_refs: evidenceRefsOf(body.evidence),
          evidence_spans: JSON.stringify(body.evidence),
          dedup_hint: body.dedupHint,
          tags: body.tags,
          importance: body.importance,
          session_id: body.sessionId ?? MANUAL_SESSION_ID,
          salience: body.salience ?? null,
        },
        who.reason,
      );
      return toMemoryItem(row);
    });
  }
}
