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
import { recordHistory } from './item-history';
import { lockProjectItems } from './item-rows';
import { bumpRevision } from './revision';

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
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

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
    return this.db.transaction().execute(async (trx) => {
      const session = await trx
        .selectFrom('sessions')
        .select('enrichment_cursor')
        .where('id', '=', write.sessionId)
        .forUpdate()
        .executeTakeFirst();
      if (!session || session.enrichment_cursor !== write.expectedCursor) return { raced: true };

      const counts: WindowCounts = { ...NO_COUNTS };
      const itemIds: string[] = [];
      counts.retracted = write.retracted.length > 0 ? await this.retract(trx, write) : 0;
      if (write.items.length > 0) {
        await lockProjectItems(trx, write.projectId);
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
        for (const id of plan.displaced) if (await this.displace(trx, id, write)) counts.displaced += 1;
        for (const step of plan.steps) {
          if (step.action === 'reinforce') {
            const row = await this.reinforce(trx, rows.get(step.target)!, step.item, step.confidence, write);
            itemIds.push(row.id);
            counts.reinforced += 1;
            continue;
          }
          const row = await this.insert(trx, step.item, write);
          if (step.action === 'supersede' && (await this.supersede(trx, rows.get(step.target)!, row.id, write))) {
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
      if (itemIds.length > 0 || counts.displaced > 0 || counts.retracted > 0) await bumpRevision(trx, write.projectId);
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
  private displace(trx: Transaction<DB>, id: string, write: WindowWrite): Promise<boolean> {
    return this.archive(
      trx,
      id,
      write,
      `displaced by more salient items of its session (it keeps ${write.sessionCap})`,
    );
  }

  /** The session's extracted live items resting on a conclusion the person rejected, archived. */
  private async retract(trx: Transaction<DB>, write: WindowWrite): Promise<number> {
    await lockProjectItems(trx, write.projectId);
    const rows = await trx
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
      if (await this.archive(trx, id, write, 'the person rejected the conclusion it rests on in the next prompt')) {
        archived += 1;
      }
    }
    return archived;
  }

  private async archive(trx: Transaction<DB>, id: string, write: WindowWrite, reason: string): Promise<boolean> {
    const before = await trx
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!transition(before.status as ItemStatus, 'archived').ok) return false;
    const row = await trx
      .updateTable('memory_items')
      .set({ status: 'archived', updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.history(trx, write, id, 'archived', before, row, reason);
    return true;
  }

  private history(
    trx: Transaction<DB>,
    write: WindowWrite,
    itemId: string,
    change: string,
    before: Row | null,
    after: Row,
    reason: string,
  ): Promise<void> {
    return recordHistory(trx, {
      projectId: write.projectId,
      itemId,
      change,
      before,
      after,
      actorType: 'worker',
      actor: write.actor,
      reason,
      runId: write.runId,
    });
  }

  private async insert(trx: Transaction<DB>, item: VerifiedItem, write: WindowWrite): Promise<Row> {
    const c = item.candidate;
    const resolvable = c.type === 'BugFix' || c.type === 'Todo';
    const row = await trx
      .insertInto('memory_items')
      .values({
        id: newId(),
        project_id: write.projectId,
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
        updated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.history(trx, write, row.id, 'created', null, row, `extracted by ${write.actor}`);
    return row;
  }

  private async reinforce(
    trx: Transaction<DB>,
    target: Row,
    item: VerifiedItem,
    confidence: number,
    write: WindowWrite,
  ): Promise<Row> {
    const c = item.candidate;
    const status = target.status === 'stale' && transition('stale', 'active').ok ? 'active' : target.status;
    const spans = distinctSpans([...target.evidence_spans, ...item.spans]);
    const resolvable = c.type === 'BugFix' || c.type === 'Todo';
    const row = await trx
      .updateTable('memory_items')
      .set({
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
        updated_at: new Date(),
      })
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.history(trx, write, row.id, 'reinforced', target, row, `same dedup hint ${c.dedupHint} seen again`);
    return row;
  }

  private async supersede(trx: Transaction<DB>, target: Row, newId_: string, write: WindowWrite): Promise<boolean> {
    if (!transition(target.status as ItemStatus, 'superseded').ok) return false;
    const row = await trx
      .updateTable('memory_items')
      .set({ status: 'superseded', superseded_by: newId_, updated_at: new Date() })
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.history(trx, write, row.id, 'superseded', target, row, `replaced by ${newId_} (content changed)`);
    return true;
  }
}
