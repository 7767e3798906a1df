import { Injectable } from '@nestjs/common';
import { HygieneReviewRepository, HygieneRunRepository, type HygieneRunRow, type PassOutcome } from '@memex/db';
import { DEFAULT_HYGIENE_OPTIONS, proposalFingerprint, runRules, type HygieneOptions } from '@memex/hygiene';

export type PassResult = { busy: true } | { busy: false; outcome: PassOutcome; itemsScanned: number; ms: number };

/** One pass of the rules over one project: read, judge, write, under the project's hygiene lock. */
@Injectable()
export class HygienePassService {
  private readonly options: HygieneOptions = DEFAULT_HYGIENE_OPTIONS;

  constructor(
    private readonly runs: HygieneRunRepository,
    private readonly review: HygieneReviewRepository,
  ) {}

  /** `{ busy: true }` when another pass of the project is running: passes of one project never overlap. */
  async pass(run: HygieneRunRow, now = Date.now()): Promise<PassResult> {
    const started = performance.now();
    const result = await this.runs.withPassLock(run.project_id, async (trx) => {
      await this.runs.markRunning(run.id);
      const [items, held] = await Promise.all([
        this.runs.items(run.project_id),
        this.review.heldByRevert(run.project_id),
      ]);
      const found = runRules(items, now, this.options);
      // An operator who reverted a rule's change has overruled it for that item, until the item changes.
      const transitions = found.transitions.filter((t) => !held.has(`${t.itemId}:${t.rule}`));
      const outcome = await this.runs.recordPass(
        trx,
        { id: run.id, projectId: run.project_id, mode: run.mode },
        {
          items,
          transitions,
          proposals: found.proposals.map((proposal) => ({ proposal, fingerprint: proposalFingerprint(proposal) })),
        },
      );
      return { outcome, itemsScanned: items.length };
    });
    if (result.busy) return result;
    return { busy: false, ...result.value, ms: Math.round(performance.now() - started) };
  }
}
