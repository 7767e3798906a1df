import { Module } from '@nestjs/common';
import { QUEUES } from '@memex/queue';
import { queueWorkerProviders } from '@memex/server';
import { HygienePassHandler } from './hygiene-pass.handler';
import { HygienePassService } from './hygiene-pass.service';
import { HygieneSweepHandler } from './hygiene-sweep.handler';
import { HygieneMetrics } from './hygiene.metrics';
import { HygieneScheduler } from './hygiene.scheduler';

/** Scheduled and on-demand hygiene passes: lifecycle moves, duplicate and quality proposals. */
@Module({
  providers: [
    HygienePassService,
    HygieneMetrics,
    HygieneScheduler,
    ...queueWorkerProviders([QUEUES.hygiene], [HygienePassHandler, HygieneSweepHandler]),
  ],
})
export class HygienePassesModule {}
