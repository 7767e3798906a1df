import { Module } from '@nestjs/common';
import { BrainModule } from '@memex/feature-brain';
import { ItemsModule } from '@memex/feature-items';
import { SearchModule } from '@memex/feature-search';
import { McpController } from './mcp.controller';
import { ProjectMemoryFactory } from './project-memory';

/** The MCP server over streamable HTTP: the brain, search and remember as tools and resources. */
@Module({
  imports: [BrainModule, ItemsModule, SearchModule],
  controllers: [McpController],
  providers: [ProjectMemoryFactory],
})
export class McpModule {}
