import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { ModuleRef } from '@nestjs/core';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@memex/config';
import { secretsEqual } from '@memex/domain';
import { QUEUES } from '@memex/queue';
import { CONFIG, bearerToken } from '@memex/server';

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
    private readonly modules: ModuleRef,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit(): void {
    const board = new FastifyAdapter();
    board.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: Object.values(QUEUES).map(
        (name) => new BullMQAdapter(this.modules.get<Queue>(getQueueToken(name), { strict: false })),
      ),
      serverAdapter: board,
    });
    const expected = this.config.MEMEX_ADMIN_TOKEN;
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(async (scope) => {
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const token = presentedToken(request);
        if (!expected) {
          return reply.code(403).send({
            error: {
              code: 'ADMIN_DISABLED',
              message: 'the queue board is disabled: set MEMEX_ADMIN_TOKEN to enable it',
              details: {},
            },
          });
        }
        if (!token || !secretsEqual(token, expected)) {
          return reply
            .code(401)
            .header('www-authenticate', 'Basic realm="memex queues", charset="UTF-8"')
            .send({
              error: {
                code: 'UNAUTHORIZED',
                message: 'the admin token is required (Bearer, or as the Basic auth password)',
                details: {},
              },
            });
        }
      });
      await scope.register(board.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
    });
  }
}
