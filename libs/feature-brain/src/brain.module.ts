import { Module } from '@nestjs/common';
import { BrainController } from './brain.controller';
import { BrainService } from './brain.service';
import { RevalidationHook } from './revalidation.hook';
import { RevisionCache } from './revision-cache';

/** The layered brain and its CLAUDE.md summary, cached by revision behind an ETag. */
@Module({
  controllers: [BrainController],
  providers: [BrainService, RevisionCache, RevalidationHook],
  exports: [BrainService],
})
export class BrainModule {}
