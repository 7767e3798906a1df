import { Module } from '@nestjs/common';
import { BrainController } from './brain.controller';
import { BrainService } from './brain.service';
import { HygieneController } from './hygiene.controller';
import { HygieneReviewService } from './hygiene-review.service';
import { MemoryItemsController } from './memory-items.controller';
import { QueueBoard } from './queue-board';
import { RevalidationHook } from './revalidation.hook';
import { RevisionCache } from './revision-cache';

/** The layered, budgeted, cached brain, memory item management, hygiene review and the queue board. */
@Module({
  controllers: [BrainController, MemoryItemsController, HygieneController],
  providers: [BrainService, RevalidationHook, RevisionCache, HygieneReviewService, QueueBoard],
  exports: [BrainService],
})
export class BrainApiModule {}
