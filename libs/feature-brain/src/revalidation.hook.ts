import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { brainQuerySchema, summaryQuerySchema } from '@memex/domain';
import { EarlyAnswers, ProjectKeyResolver } from '@memex/server';
import { etagOf, matches, wantsMarkdown } from './brain.controller';
import { BrainService, cacheableBudget } from './brain.service';

const PATHS: Record<string, 'brain' | 'summary'> = { '/api/v2/brain': 'brain', '/api/v2/brain/summary': 'summary' };

/**
 * Answers a brain revalidation whose ETag is current with 304 before the request enters the
 * Nest pipeline (an early answer, see EarlyAnswers): the same key check, the same query validation and the same hash as the
 * controller, so the answer is the one the controller would give. Anything else (no
 * If-None-Match, a stale one, a bad key or query) goes on to the controller unchanged.
 */
@Injectable()
export class RevalidationHook implements OnModuleInit {
  constructor(
    private readonly early: EarlyAnswers,
    private readonly keys: ProjectKeyResolver,
    private readonly brains: BrainService,
  ) {}

  onModuleInit(): void {
    this.early.add((request, reply) => this.answer(request, reply));
  }

  private async answer(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const ifNoneMatch = request.headers['if-none-match'];
    if (request.method !== 'GET' || typeof ifNoneMatch !== 'string') return false;
    const kind = PATHS[request.url.split('?')[0] ?? ''];
    if (!kind) return false;
    try {
      const projectId = await this.keys.resolve(request);
      const budget = kind === 'brain' ? brainQuerySchema.parse(request.query).tokenBudget : undefined;
      if (kind === 'summary') summaryQuerySchema.parse(request.query);
      if (budget !== undefined && !cacheableBudget(budget)) return false;
      const current = await this.brains.currentHash(projectId, budget === undefined ? 'summary' : `budget-${budget}`);
      if (!current) return false;
      const tag = etagOf(current, wantsMarkdown(request.headers.accept));
      if (!matches(ifNoneMatch, tag)) return false;
      await reply.header('etag', `"${tag}"`).header('vary', 'accept').code(304).send();
      return true;
    } catch {
      // The controller gives the proper answer (401, 400 …) for whatever failed here.
      return false;
    }
  }
}
