import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answers a request on its own, or returns false to let it go on to Nest. */
export type EarlyAnswer = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/**
 * Requests that need nothing of Nest's pipeline (middleware, request logging, guards,
 * interceptors): a brain revalidation whose ETag is current, a liveness probe. `createHttpApp`
 * runs these in a Fastify hook added before Nest registers its middleware, so such a request
 * pays for routing, its own work and the metrics hook, and nothing else. Features add theirs
 * when their module starts.
 */
@Injectable()
export class EarlyAnswers {
  private readonly answers: EarlyAnswer[] = [];

  add(answer: EarlyAnswer): void {
    this.answers.push(answer);
  }

  /** True when one of them answered. */
  async run(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    for (const answer of this.answers) if (await answer(request, reply)) return true;
    return false;
  }
}
