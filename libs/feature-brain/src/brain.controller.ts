import { Get, Headers, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { brainQuerySchema, summaryQuerySchema } from '@memex/domain';
import { ProjectId, ProjectScopedController, ZodPipe } from '@memex/server';
import { BrainService } from './brain.service';

/** The ETag of a representation: JSON and markdown are different bytes, so different tags. */
export function etagOf(hash: string, markdown: boolean): string {
  return markdown ? `${hash}-md` : hash;
}

/** `If-None-Match: "a", W/"b"` → does it name this tag? */
export function matches(ifNoneMatch: string | undefined, tag: string | null): boolean {
  if (!ifNoneMatch || !tag) return false;
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '').replace(/"/g, '') === tag);
}

export function wantsMarkdown(accept: string | undefined): boolean {
  return typeof accept === 'string' && /\btext\/markdown\b/.test(accept) && !/\bapplication\/json\b/.test(accept);
}

/** JSON or the markdown itself, each with its own ETag, or 304 when the client has it already. */
async function represent(
  reply: FastifyReply,
  value: { document: string; brainHash: string },
  accept: string | undefined,
  ifNoneMatch: string | undefined,
): Promise<void> {
  const markdown = wantsMarkdown(accept);
  const tag = etagOf(value.brainHash, markdown);
  void reply.header('etag', `"${tag}"`).header('vary', 'accept');
  if (matches(ifNoneMatch, tag)) await reply.code(304).send();
  else if (markdown) await reply.type('text/markdown; charset=utf-8').send(value.document);
  else await reply.send(value);
}

@ProjectScopedController('brain')
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
    await represent(reply, await this.brains.brain(projectId, query.tokenBudget), accept, ifNoneMatch);
  }

  @Get('summary')
  async summary(
    @ProjectId() projectId: string,
    @Query(new ZodPipe(summaryQuerySchema)) _query: Record<string, never>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await represent(reply, await this.brains.summary(projectId), accept, ifNoneMatch);
  }
}
