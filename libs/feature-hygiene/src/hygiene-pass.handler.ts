import { Injectable, Logger } from '@nestjs/common';
import type { Config } from '@memex/config';
import { HygieneRunRepository } from '@memex/db';
import { DelayedError, type JobPayload, type QueueJob } from '@memex/queue';
import type { JobHandler } from '@memex/server';
import { HygieneMetrics } from './hygiene.metrics';
import { HygienePassService } from './hygiene-pass.service';

/** While another pass of the project runs, a pass waits this long and tries again. */
const BUSY_DELAY_MS = 2000;

@Injectable()
export class HygienePassHandler implements JobHandler<'hygienePass'> {
  readonly job = 'hygienePass' as const;
  private readonly logger = new Logger(HygienePassHandler.name);

  constructor(
    private readonly runs: HygieneRunRepository,
    private readonly passes: HygienePassService,
    private readonly metrics: HygieneMetrics,
  ) {}

  concurrency(config: Config): number {
    return config.HYGIENE_CONCURRENCY;
  }

  async handle(payload: JobPayload<'hygienePass'>, job: QueueJob, token?: string): Promise<unknown> {
    const run = payload.runId
      ? await this.runs.find(payload.runId, payload.projectId)
      : await this.runs.create({ ...payload, requestedBy: 'scheduler' });
    // A scheduled pass keeps the run it created across retries and delays.
    if (!payload.runId) await job.updateData({ ...payload, runId: run.id });
    // A failed run's job sent round again by an operator runs the pass again; a completed one never does.
    if (run.status === 'completed') return { runId: run.id, status: run.status };

    let result;
    try {
      result = await this.passes.pass(run);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) await this.runs.markFailed(run.id, message);
      else await this.runs.requeue(run.id, message);
      throw error;
    }
    if (result.busy) {
      // Not a failure: the job goes back to delayed without spending an attempt.
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    if (result.alreadyDone) return { runId: run.id, status: 'completed' };
    const { outcome } = result;
    this.metrics.passes.inc({ mode: run.mode });
    this.metrics.passSeconds.observe(result.ms / 1000);
    for (const t of outcome.applied) this.metrics.changes.inc({ rule: t.rule, mode: run.mode });
    this.logger.log(
      {
        jobId: job.id,
        runId: run.id,
        projectId: run.project_id,
        mode: run.mode,
        itemsScanned: result.itemsScanned,
        changes: outcome.applied.length,
        skipped: outcome.skipped,
        proposals: outcome.proposals,
        ms: result.ms,
      },
      'hygiene pass done',
    );
    return { runId: run.id, changes: outcome.applied.length, proposals: outcome.proposals, ms: result.ms };
  }
}
