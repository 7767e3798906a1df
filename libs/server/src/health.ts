import { Controller, Get, Inject, Injectable, Res, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type IORedis from 'ioredis';
import { sql, type Kysely } from 'kysely';
import { KYSELY, type DB } from '@memex/db';
import { withDeadline } from './deadline';
import { EarlyAnswers } from './early-answers';
import { PRODUCER_REDIS } from './queue.module';

async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<{ ok: boolean; error?: string }> {
  try {
    await withDeadline(check(), timeoutMs);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

export type Readiness = { status: 'ok' | 'unavailable'; checks: Record<string, { ok: boolean; error?: string }> };

/** What the health endpoints answer, for the controller and for the early answers alike. */
@Injectable()
export class HealthChecks implements OnModuleInit {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    @Inject(PRODUCER_REDIS) private readonly redis: IORedis | null,
    private readonly early: EarlyAnswers,
  ) {}

  /** Probes answered before Nest's pipeline: they are called often and need none of it. */
  onModuleInit(): void {
    this.early.add(async (request, reply) => {
      if (request.method !== 'GET') return false;
      const path = request.url.split('?')[0];
      if (path === '/health/live') {
        await reply.send(this.live());
        return true;
      }
      if (path === '/health/ready') {
        const ready = await this.ready();
        await reply.code(ready.status === 'ok' ? 200 : 503).send(ready);
        return true;
      }
      return false;
    });
  }

  /** The process is up and serving; says nothing of its dependencies. */
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready to take traffic: Postgres and Redis both answer (embedded mode has no Redis to ask). */
  async ready(): Promise<Readiness> {
    const redisClient = this.redis;
    const [postgres, redis] = await Promise.all([
      // A pooled connection the server dropped is not the database being away: the read is
      // tried again on a fresh one where it runs (read-retry-dialect.ts).
      probe(() => sql`select 1`.execute(this.db)),
      redisClient ? probe(() => redisClient.ping()) : undefined,
    ]);
    const ok = postgres.ok && (redis?.ok ?? true);
    return { status: ok ? 'ok' : 'unavailable', checks: { postgres, ...(redis ? { redis } : {}) } };
  }
}

/** The routes, declared where Nest lists them; requests are answered early by HealthChecks. */
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthChecks) {}

  @Get('live')
  live(): { status: 'ok' } {
    return this.health.live();
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const ready = await this.health.ready();
    void reply.status(ready.status === 'ok' ? 200 : 503);
    return ready;
  }
}
