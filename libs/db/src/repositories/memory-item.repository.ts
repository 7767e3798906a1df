import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  evidenceRefsOf,
  transition,
  type EvidenceSpan,
  type ItemStatus,
  type ItemType,
  type MemoryItem,
  type ReinforceTarget,
  type Reinforcement,
} from '@memex/domain';
import type { DB, MemoryItemsTable } from '../schema';
import { KYSELY } from '../tokens';
import { ItemChanges } from './item-changes';
import { itemTransaction, type ItemWriter } from './item-writer';
import type { HistoryActor } from './item-history';

/** Where a window's items come from, and the cursor that proves no other run wrote it. */
export interface WindowRef {
  projectId: string;
  sessionId: string;
  /** The cursor the window was read at; nothing is written if it has moved since. */
  expectedCursor: number;
  newCursor: number;
  /** The window reached where the session ended and read its last turn as closed. */
  endRead?: boolean;
  /** When the window's events ended: the time of resolution of items seen resolved. */
  windowEndedAt: Date;
  actor: string;
  runId: string;
}

/** A live item of the project sharing a dedup hint with the window, as the merge rules judge it. */
export interface LiveItem {
  id: string;
  type: ItemType;
  status: ItemStatus;
  facts: string;
  confidence: number;
}

/** What a new or reinforcing item says, as the enrichment service decided it. */
export type WindowItem = Pick<
  MemoryItem,
  'type' | 'title' | 'facts' | 'rationale' | 'impact' | 'files' | 'tags' | 'schemaKey' | 'commitRange' | 'confidence'
> & {
  // An extracted item always has these, which a person's item may lack.
  dedupHint: string;
  importance: number;
  salience: number;
  resolved: boolean;
  /** When it was resolved, as the enrichment rules say (`resolvedAtOf`), or null. */
  resolvedAt: Date | null;
  spans: EvidenceSpan[];
};

type Row = Selectable<MemoryItemsTable>;

const liveOf = (row: Row): LiveItem => ({
  id: row.id,
  type: row.type as ItemType,
  status: row.status,
  facts: row.facts,
  confidence: row.confidence,
});

@Injectable()
export class MemoryItemRepository {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    private readonly changes: ItemChanges,
  ) {}

  /** Hints of the project's live items, most recently updated first. */
  async liveHints(
    projectId: string,
    limit: number,
  ): Promise<Array<{ dedupHint: string; type: string; title: string }>> {
    const rows = await this.db
      .selectFrom('memory_items')
      .select(['dedup_hint', 'type', 'title'])
      .where('project_id', '=', projectId)
      .where('status', 'in', ['active', 'stale'])
      .where('dedup_hint', 'is not', null)
      .orderBy('updated_at', 'desc')
      .limit(limit)
      .execute();
    const seen = new Set<string>();
    return rows.flatMap((r) => {
      if (seen.has(r.dedup_hint!)) return [];
      seen.add(r.dedup_hint!);
      return [{ dedupHint: r.dedup_hint!, type: r.type, title: r.title }];
    });
  }

  /**
   * One enriched window in one transaction: whatever `work` writes through the
   * `WindowTransaction`, and the session's cursor. Locking the session row and checking its
   * cursor makes a second run of the same window write nothing (`raced`); the project's item
   * lock keeps two sessions from creating the same dedup hint at once.
   */
  async window<T>(
    ref: WindowRef,
    work: (tx: WindowTransaction) => Promise<T>,
  ): Promise<{ raced: true } | { raced: false; value: T }> {
    return itemTransaction(this.db, this.changes, async (open, trx) => {
      const session = await trx
        .selectFrom('sessions')
        .select('enrichment_cursor')
        .where('id', '=', ref.sessionId)
        .forUpdate()
        .executeTakeFirst();
      if (!session || session.enrichment_cursor !== ref.expectedCursor) return { raced: true as const };
      const actor: HistoryActor = { actorType: 'worker', actor: ref.actor, runId: ref.runId };
      const value = await work(new WindowTransaction(trx, ref, () => open(ref.projectId, actor)));
      await trx
        .updateTable('sessions')
        .set({ enrichment_cursor: ref.newCursor, ...(ref.endRead ? { end_read_seq: ref.newCursor } : {}) })
        .where('id', '=', ref.sessionId)
        .execute();
      return { raced: false as const, value };
    });
  }
}

/**
 * The reads, locks and writes of one enrichment window. The project's item lock is taken by
 * the first read of items (a window of nothing takes none); rows read here stay locked until
 * the window commits.
 */
export class WindowTransaction {
  private writer: ItemWriter | undefined;
  private readonly rows = new Map<string, Row>();

  constructor(
    private readonly trx: Transaction<DB>,
    private readonly ref: WindowRef,
    private readonly open: () => Promise<ItemWriter>,
  ) {}

  /** The project's live item for each hint, newest winning, locked. */
  async liveByHint(hints: readonly string[]): Promise<Map<string, LiveItem>> {
    await this.lockItems();
    const rows = await this.trx
      .selectFrom('memory_items')
      .selectAll()
      .where('project_id', '=', this.ref.projectId)
      .where('dedup_hint', 'in', [...hints])
      .where('status', 'in', ['active', 'stale'])
      .orderBy('updated_at', 'asc')
      .forUpdate()
      .execute();
    for (const row of rows) this.rows.set(row.id, row);
    // Newest last, so it wins the map.
    return new Map(rows.map((r) => [r.dedup_hint!, liveOf(r)]));
  }

  /** The session's live extracted items, as the session cap weighs them, locked. */
  async held(): Promise<Array<{ id: string; salience: number }>> {
    await this.lockItems();
    const rows = await this.sessionItems()
      .select(['id', 'salience'])
      // Items written in one window share their created_at: a tie on salience is broken by
      // what the item says, never by its random id, so the same input keeps the same items.
      .orderBy('created_at', 'asc')
      .orderBy('dedup_hint', 'asc')
      .orderBy('title', 'asc')
      .forUpdate()
      .execute();
    return rows.map((r) => ({ id: r.id, salience: r.salience! }));
  }

  /** The session's live extracted items whose evidence quotes any of these events, with their spans. */
  async quoting(eventIds: readonly string[]): Promise<Array<{ id: string; spans: EvidenceSpan[] }>> {
    await this.lockItems();
    const rows = await this.sessionItems()
      .select(['id', 'evidence_spans'])
      .where(sql<boolean>`evidence_refs && ${sql.val([...eventIds])}::text[]`)
      .execute();
    return rows.map((r) => ({ id: r.id, spans: r.evidence_spans }));
  }

  /** Archives a live item (false when the lifecycle no longer allows it). */
  async archive(id: string, reason: string): Promise<boolean> {
    const writer = await this.lockItems();
    const before = await this.trx
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!transition(before.status, 'archived').ok) return false;
    this.rows.set(id, await writer.update(before, { status: 'archived' }, 'archived', reason));
    return true;
  }

  async create(item: WindowItem): Promise<string> {
    const writer = await this.lockItems();
    const row = await writer.insert(
      {
        type: item.type,
        title: item.title,
        facts: item.facts,
        rationale: item.rationale,
        impact: item.impact,
        files: item.files,
        schema_key: item.schemaKey,
        commit_range: item.commitRange,
        confidence: item.confidence,
        status: 'active',
        evidence_refs: evidenceRefsOf(item.spans),
        evidence_spans: JSON.stringify(item.spans),
        dedup_hint: item.dedupHint,
        tags: item.tags,
        importance: item.importance,
        salience: item.salience,
        session_id: this.ref.sessionId,
        resolved_at: item.resolvedAt,
      },
      `extracted by ${this.ref.actor}`,
    );
    this.rows.set(row.id, row);
    return row.id;
  }

  /** What a reinforcement reads of an item read by `liveByHint` (locked). */
  reinforceTarget(id: string): ReinforceTarget {
    const row = this.locked(id);
    return {
      title: row.title,
      status: row.status,
      files: row.files,
      evidenceSpans: row.evidence_spans,
      salience: row.salience,
      resolvedAt: row.resolved_at,
    };
  }

  /** Writes a reinforcement the enrichment rules decided (`reinforce`) onto an item read by `liveByHint`. */
  async applyReinforcement(id: string, r: Reinforcement, reason: string): Promise<string> {
    const writer = await this.lockItems();
    const row = await writer.update(
      this.locked(id),
      {
        title: r.title,
        facts: r.facts,
        confidence: r.confidence,
        status: r.status,
        files: r.files,
        evidence_refs: r.evidenceRefs,
        evidence_spans: JSON.stringify(r.evidenceSpans),
        salience: r.salience,
        last_reinforced_at: r.lastReinforcedAt,
        resolved_at: r.resolvedAt,
      },
      'reinforced',
      reason,
    );
    this.rows.set(id, row);
    return id;
  }

  /** The item read by `liveByHint` replaced by `by` (false when the lifecycle no longer allows it). */
  async supersede(id: string, by: string): Promise<boolean> {
    const writer = await this.lockItems();
    const target = this.locked(id);
    if (!transition(target.status, 'superseded').ok) return false;
    this.rows.set(
      id,
      await writer.update(
        target,
        { status: 'superseded', superseded_by: by },
        'superseded',
        `replaced by ${by} (content changed)`,
      ),
    );
    return true;
  }

  private async lockItems(): Promise<ItemWriter> {
    return (this.writer ??= await this.open());
  }

  private locked(id: string): Row {
    const row = this.rows.get(id);
    if (!row) throw new Error(`item ${id} was not read in this window`);
    return row;
  }

  private sessionItems() {
    return this.trx
      .selectFrom('memory_items')
      .where('project_id', '=', this.ref.projectId)
      .where('session_id', '=', this.ref.sessionId)
      .where('salience', 'is not', null)
      .where('status', 'in', ['active', 'stale']);
  }
}
