import { Module } from '@nestjs/common';
import { BrainController } from './brain.controller';
import { BrainService } from './brain.service';
import { MemoryItemsController } from './memory-items.controller';
import { RevalidationHook } from './revalidation.hook';
import { RevisionCache } from './revision-cache';

/** The layered, budgeted, cached brain, and memory item management. */
@Module({
  controllers: [BrainController, MemoryItemsController],
  providers: [BrainService, RevalidationHook, RevisionCache],
  exports: [BrainService],
})
export class BrainApiModule {}
