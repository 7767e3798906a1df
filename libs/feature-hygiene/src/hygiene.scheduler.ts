import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { EventEmitter } from 'node:events';
import type { Config } from '@memex/config';
import { CONFIG, IntervalTask, JobQueue, PRODUCER_REDIS } from '@memex/server';

export const HYGIENE_SCHEDULER_ID = 'hygiene-sweep';

/**
 * Keeps the one BullMQ job scheduler of hygiene in step with HYGIENE_INTERVAL_MS. Every
 * worker replica upserts the same scheduler id, so there is one schedule however many run.
 *
 * The schedule lives only in Redis: a Redis that comes back empty (restarted without
 * persistence, flushed, failed over to a fresh replica) would turn scheduled passes off until
 * a process restarted. So it is looked for every HYGIENE_SCHEDULE_CHECK_MS and whenever the
 * connection is ready again, and made again when it is missing.
 */
@Injectable()
export class HygieneScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HygieneScheduler.name);
  private readonly check = new IntervalTask(
    () => this.restoreIfMissing(),
    this.logger,
    'could not check the hygiene schedule; trying again next interval',
  );
  private readonly onReady = (): void => {
    this.check
      .runOnce()
      .catch((error: unknown) =>
        this.logger.warn({ err: (error as Error).message }, 'could not check the hygiene schedule after reconnecting'),
      );
  };

  constructor(
    private readonly jobs: JobQueue,
    /** Redis in server mode, to hear it come back; none in embedded mode. */
    @Inject(PRODUCER_REDIS) private readonly redis: EventEmitter | null,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const every = this.config.HYGIENE_INTERVAL_MS;
    if (every === 0) {
      await this.jobs.unschedule('hygieneSweep', HYGIENE_SCHEDULER_ID);
      this.logger.log('scheduled hygiene passes are off (HYGIENE_INTERVAL_MS=0)');
      return;
    }
    await this.upsert();
    this.logger.log({ everyMs: every, mode: this.config.HYGIENE_SCHEDULED_MODE }, 'hygiene passes scheduled');
    this.check.start(this.config.HYGIENE_SCHEDULE_CHECK_MS);
    this.redis?.on('ready', this.onReady);
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis?.off('ready', this.onReady);
    await this.check.stop();
  }

  /** Makes the schedule again if Redis lost it; true when it had to. */
  private async restoreIfMissing(): Promise<boolean> {
    if (await this.jobs.isScheduled('hygieneSweep', HYGIENE_SCHEDULER_ID)) return false;
    await this.upsert();
    this.logger.warn(
      { everyMs: this.config.HYGIENE_INTERVAL_MS },
      'the hygiene schedule was missing from Redis; made again',
    );
    return true;
  }

  private upsert(): Promise<void> {
    return this.jobs.schedule('hygieneSweep', HYGIENE_SCHEDULER_ID, this.config.HYGIENE_INTERVAL_MS, {});
  }
}
