import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { Config } from '@memex/config';
import { JOBS, QUEUES } from '@memex/queue';
import { CONFIG } from '@memex/server';

export const HYGIENE_SCHEDULER_ID = 'hygiene-sweep';

/**
 * Keeps the one BullMQ job scheduler of hygiene in step with HYGIENE_INTERVAL_MS. Every
 * worker replica upserts the same scheduler id, so there is one schedule however many run.
 */
@Injectable()
export class HygieneScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(HygieneScheduler.name);

  constructor(
    @InjectQueue(QUEUES.hygiene) private readonly queue: Queue,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const every = this.config.HYGIENE_INTERVAL_MS;
    if (every === 0) {
      await this.queue.removeJobScheduler(HYGIENE_SCHEDULER_ID);
      this.logger.log('scheduled hygiene passes are off (HYGIENE_INTERVAL_MS=0)');
      return;
    }
    const { name, options } = JOBS.hygieneSweep;
    await this.queue.upsertJobScheduler(HYGIENE_SCHEDULER_ID, { every }, { name, data: {}, opts: options });
    this.logger.log({ everyMs: every, mode: this.config.HYGIENE_SCHEDULED_MODE }, 'hygiene passes scheduled');
  }
}
