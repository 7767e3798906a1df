import { Module } from '@nestjs/common';
import { HygienePassesModule } from '@memex/feature-hygiene';

/** The hygiene worker: scheduled and on-demand passes. */
@Module({ imports: [HygienePassesModule] })
export class HygieneWorkerModule {}
