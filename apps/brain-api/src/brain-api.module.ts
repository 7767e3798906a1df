import { Module } from '@nestjs/common';
import { BrainController } from './brain.controller';
import { BrainService } from './brain.service';
import { MemoryItemsController } from './memory-items.controller';

/** The layered, budgeted, cached brain, and memory item management. */
@Module({
  controllers: [BrainController, MemoryItemsController],
  providers: [BrainService],
  exports: [BrainService],
})
export class BrainApiModule {}
