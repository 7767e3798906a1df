import { Module } from '@nestjs/common';
import { RetrievalModule } from '@memex/retrieval';
import { SearchController } from './search.controller';
import { PackSources } from './pack-sources';
import { SearchService } from './search.service';

/** Hybrid search over the memory and context packs that fit an assistant's budget. */
@Module({
  imports: [RetrievalModule],
  controllers: [SearchController],
  providers: [SearchService, PackSources],
  exports: [SearchService],
})
export class SearchModule {}
