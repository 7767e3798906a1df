import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  ITEM_LIMITS,
  MAX_EVIDENCE_SPANS,
  distinctSpans,
  newId,
  transition,
  type ItemStatus,
  type ItemType,
} from '@memex/domain';
import {
  planWindow,
  restsOnRejected,
  salienceOf,
  type ExistingHint,
  type StoredItem,
  type VerifiedItem,
} from '@memex/enrichment';
import type { DB, MemoryItemsTable } from '../schema';
import { KYSELY } from '../tokens';
import { ItemChanges } from './item-changes';
import { ItemWriter, itemTransaction } from './item-writer';

export interface WindowWrite {
  projectId: string;
  sessionId: string;
  /** The cursor the window was read at; the write is dropped if it has moved since. */
  expectedCursor: number;
  newCursor: number;
  items: VerifiedItem[];
  /** When the window's events ended: the time of resolution of items seen resolved. */
  windowEndedAt: Date;
  actor: string;
  runId: string;
  /** The most extracted items a session keeps (0: no limit). */
  sessionCap: number;
  /** Events whose conclusions the person rejected: the session's items resting on them alone are archived. */
  retracted: readonly string[];
}

/** What a window's write did to the store, item by item. */
export interface WindowCounts {
  created: number;
  reinforced: number;
  superseded: number;
  /** New items the session had no room for, and held items they displaced (archived). */
  capped: number;
  displaced: number;
  /** Items archived because the person rejected the conclusion they rest on. */
  retracted: number;
}

export const NO_COUNTS: Readonly<WindowCounts> = {
  created: 0,
  reinforced: 0,
  superseded: 0,
  capped: 0,
  displaced: 0,
  retracted: 0,
};

export const WINDOW_COUNTS = Object.keys(NO_COUNTS) as Array<keyof WindowCounts>;

export type WindowResult = { raced: true } | ({ raced: false; itemIds: string[] } & WindowCounts);

type Row = Selectable<MemoryItemsTable>;

function existingOf(row: Row): StoredItem {
  return {
    id: row.id,
    type: row.type as ItemType,
    status: row.status as ItemStatus,
    facts: row.facts,
    confidence: row.confidence,
  };
}

@Injectable()
export class MemoryItemRepository {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    private readonly changes: ItemChanges,
  ) {}

  /** Hints of the project's live items, most recently updated first. */
  async liveHints(projectId: string, limit: number): Promise<ExistingHint[]> {
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
   * Writes one enriched window in one transaction: items (new, reinforced or superseding),
   * their history, the session's cursor and the project's revision. Locking the session row
   * and checking its cursor makes a second run of the same window write nothing; a
   * per-project lock keeps two sessions from creating the same dedup hint at once.
   */
  async applyWindow(write: WindowWrite): Promise<WindowResult> {
    return itemTransaction(this.db, this.changes, async (open, trx) => {
      const session = await trx
        .selectFrom('sessions')
        .select('enrichment_cursor')
        .where('id', '=', write.sessionId)
        .forUpdate()
        .executeTakeFirst();
      if (!session || session.enrichment_cursor !== write.expectedCursor) return { raced: true };

      // Opened only when the window has something to write: a window of nothing takes no project lock.
      const actor = { actorType: 'worker', actor: write.actor, runId: write.runId } as const;
      let opened: ItemWriter | undefined;
      const writer = async () => (opened ??= await open(write.projectId, actor));
      const counts: WindowCounts = { ...NO_COUNTS };
      const itemIds: string[] = [];
      if (write.retracted.length > 0) counts.retracted = await this.retract(await writer(), write);
      if (write.items.length > 0) {
        const w = await writer();
        const live = await this.liveByHint(trx, write.projectId, [
          ...new Set(write.items.map((i) => i.candidate.dedupHint)),
        ]);
        const plan = planWindow({
          items: write.items,
          live: new Map([...live].map(([hint, row]) => [hint, existingOf(row)])),
          held: await this.sessionSaliences(trx, write.projectId, write.sessionId),
          cap: write.sessionCap,
        });
        const rows = new Map([...live.values()].map((r) => [r.id, r]));
        counts.capped = plan.capped;
        for (const id of plan.displaced) if (await this.displace(w, id, write)) counts.displaced += 1;
        for (const step of plan.steps) {
          if (step.action === 'reinforce') {
            const row = await this.reinforce(w, rows.get(step.target)!, step.item, step.confidence, write);
            itemIds.push(row.id);
            counts.reinforced += 1;
            continue;
          }
          const row = await this.insert(w, step.item, write);
          if (step.action === 'supersede' && (await this.supersede(w, rows.get(step.target)!, row.id))) {
            counts.superseded += 1;
          }
          itemIds.push(row.id);
          counts.created += 1;
        }
      }

      await trx
        .updateTable('sessions')
        .set({ enrichment_cursor: write.newCursor })
        .where('id', '=', write.sessionId)
        .execute();
      return { raced: false, ...counts, itemIds };
    });
  }

  private async liveByHint(trx: Transaction<DB>, projectId: string, hints: string[]): Promise<Map<string, Row>> {
    const rows = await trx
      .selectFrom('memory_items')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('dedup_hint', 'in', hints)
      .where('status', 'in', ['active', 'stale'])
      .orderBy('updated_at', 'asc')
      .forUpdate()
      .execute();
    // Newest last, so it wins the map.
    return new Map(rows.map((r) => [r.dedup_hint!, r]));
  }

  /** The session's extracted live items, as the session cap weighs them. */
  private async sessionSaliences(
    trx: Transaction<DB>,
    projectId: string,
    sessionId: string,
  ): Promise<Array<{ id: string; salience: number }>> {
    const rows = await trx
      .selectFrom('memory_items')
      .select(['id', 'salience'])
      .where('project_id', '=', projectId)
      .where('session_id', '=', sessionId)
      .where('salience', 'is not', null)
      .where('status', 'in', ['active', 'stale'])
      .orderBy('created_at', 'asc')
      .forUpdate()
      .execute();
    return rows.map((r) => ({ id: r.id, salience: r.salience! }));
  }

  /** An item more salient new ones pushed out of its session's few: archived, so search still finds it. */
  private displace(writer: ItemWriter, id: string, write: WindowWrite): Promise<boolean> {
    return this.archive(writer, id, `displaced by more salient items of its session (it keeps ${write.sessionCap})`);
  }

  /** The session's extracted live items resting on a conclusion the person rejected, archived. */
  private async retract(writer: ItemWriter, write: WindowWrite): Promise<number> {
    const rows = await writer.trx
      .selectFrom('memory_items')
      .select(['id', 'evidence_spans'])
      .where('project_id', '=', write.projectId)
      .where('session_id', '=', write.sessionId)
      .where('salience', 'is not', null)
      .where('status', 'in', ['active', 'stale'])
      .where(sql<boolean>`evidence_refs && ${sql.val([...write.retracted])}::text[]`)
      .execute();
    const rejected = new Set(write.retracted);
    let archived = 0;
    for (const { id } of rows.filter((r) => restsOnRejected(r.evidence_spans, rejected))) {
      if (await this.archive(writer, id, 'the person rejected the conclusion it rests on in the next prompt')) {
        archived += 1;
      }
    }
    return archived;
  }

  private async archive(writer: ItemWriter, id: string, reason: string): Promise<boolean> {
    const before = await writer.trx
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!transition(before.status as ItemStatus, 'archived').ok) return false;
    await writer.update(before, { status: 'archived' }, 'archived', reason);
    return true;
  }

  private insert(writer: ItemWriter, item: VerifiedItem, write: WindowWrite): Promise<Row> {
    const c = item.candidate;
    const resolvable = c.type === 'BugFix' || c.type === 'Todo';
    return writer.insert(
      {
        type: c.type,
        title: c.title,
        facts: c.facts,
        rationale: c.rationale,
        impact: c.impact,
        files: c.files,
        schema_key: c.schemaKey,
        commit_range: c.commitRange,
        confidence: c.confidence,
        status: 'active',
        evidence_refs: [...new Set(item.spans.map((s) => s.eventId))],
        evidence_spans: JSON.stringify(item.spans),
        dedup_hint: c.dedupHint,
        tags: c.tags,
        importance: c.importance,
        salience: salienceOf(c),
        session_id: write.sessionId,
        resolved_at: resolvable && c.resolved ? write.windowEndedAt : null,
      },
      `extracted by ${write.actor}`,
    );
  }

  private reinforce(
    writer: ItemWriter,
    target: Row,
    item: VerifiedItem,
    confidence: number,
    write: WindowWrite,
  ): Promise<Row> {
    const c = item.candidate;
    const status = target.status === 'stale' && transition('stale', 'active').ok ? 'active' : target.status;
    const spans = distinctSpans([...target.evidence_spans, ...item.spans]);
    const resolvable = c.type === 'BugFix' || c.type === 'Todo';
    return writer.update(
      target,
      {
        facts: c.facts,
        confidence,
        status,
        files: [...new Set([...target.files, ...c.files])].slice(0, ITEM_LIMITS.files),
        evidence_refs: [...new Set([...target.evidence_refs, ...item.spans.map((s) => s.eventId)])],
        evidence_spans: JSON.stringify(spans.slice(-MAX_EVIDENCE_SPANS)),
        // The candidate never became an item of its own; its id records that it was merged here.
        merged_from: [...target.merged_from, newId()],
        // Said again, it is worth at least as much as the stronger of the two sayings.
        salience: target.salience === null ? null : Math.max(target.salience, salienceOf(c)),
        last_reinforced_at: write.windowEndedAt,
        resolved_at: resolvable && c.resolved && !target.resolved_at ? write.windowEndedAt : target.resolved_at,
      },
      'reinforced',
      `same dedup hint ${c.dedupHint} seen again`,
    );
  }

  private async supersede(writer: ItemWriter, target: Row, newId_: string): Promise<boolean> {
    if (!transition(target.status as ItemStatus, 'superseded').ok) return false;
    await writer.update(
      target,
      { status: 'superseded', superseded_by: newId_ },
      'superseded',
      `replaced by ${newId_} (content changed)`,
    );
    return true;
  }
}
