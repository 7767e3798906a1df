import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { rememberBodySchema, toItemView, type ItemView, type RememberBody } from '@memex/domain';
import { ProjectId, ProjectKeyGuard, ZodPipe } from '@memex/server';
import { ManualItemService } from './manual-items.service';

/** What an assistant records as it works (MCP's memex_remember over HTTP), with the words that show it. */
@Controller('api/v2/memories')
@UseGuards(ProjectKeyGuard)
export class RememberController {
  constructor(private readonly manual: ManualItemService) {}

  @Post()
  @HttpCode(201)
  async remember(
    @ProjectId() projectId: string,
    @Body(new ZodPipe(rememberBodySchema)) body: RememberBody,
  ): Promise<ItemView> {
    return toItemView(await this.manual.remember(projectId, body));
  }
}
