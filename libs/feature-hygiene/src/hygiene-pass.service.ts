import { Injectable } from '@nestjs/common';
import { HygieneReviewRepository, HygieneRunRepository, type HygieneRunRow, type PassOutcome } from '@memex/db';
import { DEFAULT_HYGIENE_OPTIONS, proposalFingerprint, runRules, type HygieneOptions } from '@memex/hygiene';

export type PassResult =
  | { busy: true }
  | { busy: false; alreadyDone: true }
  | { busy: false; alreadyDone: false; outcome: PassOutcome; itemsScanned: number; ms: number };

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
    const result = await this.runs.withPassLock(run.project_id, async (trx, open) => {
      // A job handed to a second worker (the first stalled) may get here after the first finished.
      if ((await this.runs.statusFor(trx, run.id)) === 'completed') return null;
      // Everything in the pass's transaction: one connection, however many the database has.
      await this.runs.markRunning(trx, run.id);
      const items = await this.runs.items(trx, run.project_id);
      const held = await this.review.heldRules(trx, run.project_id);
      const found = runRules(items, now, this.options, (itemId, rule) => held.has(`${itemId}:${rule}`));
      const transitions = found.transitions;
      const outcome = await this.runs.recordPass(
        trx,
        open,
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
    if (result.value === null) return { busy: false, alreadyDone: true };
    return { busy: false, alreadyDone: false, ...result.value, ms: Math.round(performance.now() - started) };
  }
}
