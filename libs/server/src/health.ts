import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type IORedis from 'ioredis';
import { sql, type Kysely } from 'kysely';
import { KYSELY, retryOnConnectionLoss, type DB } from '@memex/db';
import { withDeadline } from './deadline';
import { PRODUCER_REDIS } from './queue.module';

async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<{ ok: boolean; error?: string }> {
  try {
    await withDeadline(check(), timeoutMs);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

@Controller('health')
export class HealthController {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    @Inject(PRODUCER_REDIS) private readonly redis: IORedis | null,
  ) {}

  /** The process is up and serving; says nothing of its dependencies. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready to take traffic: Postgres and Redis both answer (embedded mode has no Redis to ask). */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const redisClient = this.redis;
    const [postgres, redis] = await Promise.all([
      // A pooled connection the server dropped is not the database being away: try a fresh one.
      probe(() => retryOnConnectionLoss(() => sql`select 1`.execute(this.db))),
      redisClient ? probe(() => redisClient.ping()) : undefined,
    ]);
    const ok = postgres.ok && (redis?.ok ?? true);
    void reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks: { postgres, ...(redis ? { redis } : {}) } };
  }
}
