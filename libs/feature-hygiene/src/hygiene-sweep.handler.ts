import { Inject, Injectable } from '@nestjs/common';
import type { Config } from '@memex/config';
import { HygieneRunRepository, ProjectRepository } from '@memex/db';
import type { JobPayload } from '@memex/queue';
import { CONFIG, JobQueue, type JobHandler } from '@memex/server';

const PAGE = 500;
/** Scheduled runs that did nothing are kept this long. */
const IDLE_RUN_DAYS = 7;
/** An operator's run still queued after this long has lost its job (see queuedSince). */
const LOST_RUN_MINUTES = 15;

/**
 * The scheduler's tick: one pass job per project. A project whose scheduled pass is still
 * waiting or running gets no second one (BullMQ deduplication on the project id).
 */
@Injectable()
export class HygieneSweepHandler implements JobHandler<'hygieneSweep'> {
  readonly job = 'hygieneSweep' as const;

  constructor(
    private readonly projects: ProjectRepository,
    private readonly runs: HygieneRunRepository,
    private readonly jobs: JobQueue,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async handle(
    _payload: JobPayload<'hygieneSweep'>,
  ): Promise<{ projects: number; prunedRuns: number; requeuedRuns: number }> {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const ids = await this.projects.pageIds(after, PAGE);
      if (ids.length === 0) break;
      await this.jobs.enqueueMany(
        'hygienePass',
        ids.map((projectId) => ({ projectId, mode: this.config.HYGIENE_SCHEDULED_MODE, trigger: 'schedule' as const })),
        { dedupe: {} },
      );
      total += ids.length;
      after = ids[ids.length - 1]!;
    }
    let requeued = 0;
    for (let last: string | null = null; ;) {
      const lost = await this.runs.queuedSince(LOST_RUN_MINUTES, last, PAGE);
      if (lost.length === 0) break;
      await this.jobs.enqueueMany(
        'hygienePass',
        lost.map((run) => ({ projectId: run.project_id, mode: run.mode, trigger: 'operator' as const, runId: run.id })),
      );
      requeued += lost.length;
      last = lost[lost.length - 1]!.id;
    }
    return { projects: total, prunedRuns: await this.runs.pruneIdle(IDLE_RUN_DAYS), requeuedRuns: requeued };
  }
}
