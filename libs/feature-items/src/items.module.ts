import { Module } from '@nestjs/common';
import { ItemCurationService } from './item-curation.service';
import { ManualItemService } from './manual-items.service';
import { MemoryItemsController } from './memory-items.controller';
import { RememberController } from './remember.controller';

/** Memory items as a person or an assistant sees them: read, remember, edit, curate in bulk. */
@Module({
  controllers: [MemoryItemsController, RememberController],
  providers: [ManualItemService, ItemCurationService],
  exports: [ManualItemService],
})
export class ItemsModule {}
