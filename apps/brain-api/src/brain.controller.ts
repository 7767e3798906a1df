import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { brainQuerySchema } from '@memex/domain';
import { ProjectId, ProjectKeyGuard, ZodPipe } from '@memex/server';
import { BrainService } from './brain.service';

/** `If-None-Match: "a", W/"b"` → does it name this hash? */
export function matches(ifNoneMatch: string | undefined, hash: string | null): boolean {
  if (!ifNoneMatch || !hash) return false;
  return ifNoneMatch
    .split(',')
    .some((tag) => tag.trim().replace(/^W\//, '').replace(/"/g, '') === hash || tag.trim() === '*');
}

function wantsMarkdown(accept: string | undefined): boolean {
  return typeof accept === 'string' && /\btext\/markdown\b/.test(accept) && !/\bapplication\/json\b/.test(accept);
}

@Controller('api/v2/brain')
@UseGuards(ProjectKeyGuard)
export class BrainController {
  constructor(private readonly brains: BrainService) {}

  @Get()
  async brain(
    @ProjectId() projectId: string,
    @Query(new ZodPipe(brainQuerySchema)) query: { tokenBudget: number },
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const kind = `budget-${query.tokenBudget}`;
    // Revalidation: the cached hash of the current revision answers without assembling.
    const current = await this.brains.currentHash(projectId, kind);
    if (matches(ifNoneMatch, current)) {
      await reply.header('etag', `"${current}"`).code(304).send();
      return;
    }
    const brain = await this.brains.brain(projectId, query.tokenBudget);
    void reply.header('etag', `"${brain.brainHash}"`).header('vary', 'accept');
    if (matches(ifNoneMatch, brain.brainHash)) {
      await reply.code(304).send();
      return;
    }
    if (wantsMarkdown(accept)) await reply.type('text/markdown; charset=utf-8').send(brain.document);
    else await reply.send(brain);
  }

  @Get('summary')
  async summary(
    @ProjectId() projectId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const summary = await this.brains.summary(projectId);
    void reply.header('etag', `"${summary.brainHash}"`).header('vary', 'accept');
    if (matches(ifNoneMatch, summary.brainHash)) {
      await reply.code(304).send();
      return;
    }
    if (wantsMarkdown(accept)) await reply.type('text/markdown; charset=utf-8').send(summary.document);
    else await reply.send(summary);
  }
}
