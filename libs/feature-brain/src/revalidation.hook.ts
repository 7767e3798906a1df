import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brainQuerySchema, summaryQuerySchema } from '@memex/domain';
import { ProjectKeyResolver } from '@memex/server';
import { etagOf, matches, wantsMarkdown } from './brain.controller';
import { BrainService, cacheableBudget } from './brain.service';

const PATHS: Record<string, 'brain' | 'summary'> = { '/api/v2/brain': 'brain', '/api/v2/brain/summary': 'summary' };

/**
 * Answers a brain revalidation whose ETag is current with 304 before the request enters the
 * Nest pipeline: the same key check, the same query validation and the same hash as the
 * controller, so the answer is the one the controller would give. Anything else (no
 * If-None-Match, a stale one, a bad key or query) goes on to the controller unchanged.
 */
@Injectable()
export class RevalidationHook implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly keys: ProjectKeyResolver,
    private readonly brains: BrainService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const ifNoneMatch = request.headers['if-none-match'];
      if (request.method !== 'GET' || typeof ifNoneMatch !== 'string') return;
      const kind = PATHS[request.url.split('?')[0] ?? ''];
      if (!kind) return;
      try {
        const projectId = await this.keys.resolve(request);
        const budget = kind === 'brain' ? brainQuerySchema.parse(request.query).tokenBudget : undefined;
        if (kind === 'summary') summaryQuerySchema.parse(request.query);
        if (budget !== undefined && !cacheableBudget(budget)) return;
        const current = await this.brains.currentHash(projectId, budget === undefined ? 'summary' : `budget-${budget}`);
        if (!current) return;
        const tag = etagOf(current, wantsMarkdown(request.headers.accept));
        if (!matches(ifNoneMatch, tag)) return;
        await reply.header('etag', `"${tag}"`).header('vary', 'accept').code(304).send();
      } catch {
        // The controller gives the proper answer (401, 400 …) for whatever failed here.
      }
    });
  }
}
