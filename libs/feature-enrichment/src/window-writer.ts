import { Injectable } from '@nestjs/common';
import { MemoryItemRepository, type WindowItem, type WindowRef } from '@memex/db';
import {
  NO_COUNTS,
  planWindow,
  reinforce,
  resolvedAtOf,
  restsOnRejected,
  salienceOf,
  type VerifiedItem,
  type WindowCounts,
} from '@memex/enrichment';

export type WindowResult = { raced: true } | ({ raced: false; itemIds: string[] } & WindowCounts);

function windowItem({ candidate: c, spans }: VerifiedItem, windowEndedAt: Date): WindowItem {
  return {
    type: c.type,
    title: c.title,
    facts: c.facts,
    rationale: c.rationale,
    impact: c.impact,
    files: c.files,
    tags: c.tags,
    schemaKey: c.schemaKey,
    dedupHint: c.dedupHint,
    commitRange: c.commitRange,
    importance: c.importance,
    confidence: c.confidence,
    salience: salienceOf(c),
    resolved: c.resolved,
    resolvedAt: resolvedAtOf(c.type, c.resolved, windowEndedAt),
    spans,
  };
}

/**
 * Writes an enriched window as the enrichment rules decide it: items resting on a conclusion
 * the person rejected are retracted, then the window's plan (planWindow: one write per dedup
 * hint, the session cap) is carried out, all in the window's one transaction.
 */
@Injectable()
export class WindowWriter {
  constructor(private readonly items: MemoryItemRepository) {}

  async write(
    ref: WindowRef,
    verified: readonly VerifiedItem[],
    options: { retracted: readonly string[]; sessionCap: number },
  ): Promise<WindowResult> {
    const result = await this.items.window(ref, async (tx) => {
      const counts: WindowCounts = { ...NO_COUNTS };
      const itemIds: string[] = [];
      if (options.retracted.length > 0) {
        const rejected = new Set(options.retracted);
        for (const item of await tx.quoting(options.retracted)) {
          const reason = 'the person rejected the conclusion it rests on in the next prompt';
          if (restsOnRejected(item.spans, rejected) && (await tx.archive(item.id, reason))) counts.retracted += 1;
        }
      }
      if (verified.length === 0) return { ...counts, itemIds };
      const plan = planWindow({
        items: verified,
        live: await tx.liveByHint([...new Set(verified.map((v) => v.candidate.dedupHint))]),
        held: await tx.held(),
        cap: options.sessionCap,
      });
      counts.capped = plan.capped;
      for (const id of plan.displaced) {
        const reason = `displaced by more salient items of its session (it keeps ${options.sessionCap})`;
        if (await tx.archive(id, reason)) counts.displaced += 1;
      }
      for (const step of plan.steps) {
        const item = windowItem(step.item, ref.windowEndedAt);
        if (step.action === 'reinforce') {
          const target = tx.reinforceTarget(step.target);
          const reinforced = reinforce(target, item, step.confidence, ref.windowEndedAt);
          const retitled = reinforced.title !== target.title ? ', retitled by what the point has become' : '';
          const reason = `same dedup hint ${item.dedupHint} seen again${retitled}`;
          itemIds.push(await tx.applyReinforcement(step.target, reinforced, reason));
          counts.reinforced += 1;
          continue;
        }
        const id = await tx.create(item);
        if (step.action === 'supersede' && (await tx.supersede(step.target, id))) counts.superseded += 1;
        itemIds.push(id);
        counts.created += 1;
      }
      return { ...counts, itemIds };
    });
    return result.raced ? { raced: true } : { raced: false, ...result.value };
  }
}
