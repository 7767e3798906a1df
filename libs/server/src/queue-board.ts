import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { Queue } from 'bullmq';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@memex/config';
import { OperatorCredentials, adminSecret, bearerToken } from './auth';
import { CONFIG } from './config.module';
import { toErrorResponse } from './exception.filter';
import { queueCall } from './queue-call';
import { ALL_QUEUES, type AllQueues } from './queue-tokens';

export const QUEUE_BOARD_PATH = '/admin/queues';

/** The admin token from `Authorization: Bearer <token>`, or as the password of Basic auth (so a browser can log in). */
function presentedToken(request: FastifyRequest): string | undefined {
  const bearer = bearerToken(request);
  if (bearer) return bearer;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(String(request.headers.authorization ?? ''));
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

/**
 * Bull Board at /admin/queues, showing every queue, behind the admin token. It is a Fastify
 * plugin outside Nest's routing: the token check answers in the API's error shape itself
 * (Bull Board's own errors, behind it, keep Bull Board's shape).
 */
@Injectable()
export class QueueBoard implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    @Inject(ALL_QUEUES) private readonly queues: AllQueues,
    @Inject(CONFIG) private readonly config: Config,
    private readonly operators: OperatorCredentials,
  ) {}

  onModuleInit(): void {
    // Bull Board reads BullMQ's queues in Redis: embedded mode's queues in process have none
    // (the admin jobs API and the dashboard's Health page show them).
    const queues = Object.values(this.queues).filter((q): q is Queue => q instanceof Queue);
    if (queues.length === 0) return;
    const board = new FastifyAdapter();
    board.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: queues.map((queue) => new BullMQAdapter(queue)),
      serverAdapter: board,
    });
    const secret = adminSecret(this.config, 'Bearer, or as the Basic auth password');
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(async (scope) => {
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const token = presentedToken(request);
        try {
          await this.operators.verify(request.ip, token, { ...secret, kind: 'queue-board' });
          // Bull Board's API answers a Redis away with a 500 of its own: asked first, it is the
          // 503 with Retry-After that every admin route on the queues answers.
          if (request.url.startsWith(`${QUEUE_BOARD_PATH}/api/`)) {
            await queueCall(() => queues[0]!.getJobCounts('waiting'));
          }
        } catch (error) {
          const { status, body, headers } = toErrorResponse(error);
          // A browser asks for the password on a 401 that names Basic.
          if (status === 401) void reply.header('www-authenticate', 'Basic realm="memex queues", charset="UTF-8"');
          return reply.code(status).headers(headers).send(body);
        }
      });
      await scope.register(board.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
    });
  }
}
