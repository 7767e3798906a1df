import { BullModule, getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Global, Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type IORedis from 'ioredis';
import type { Config } from '@memex/config';
import { QUEUES, createRedisConnection } from '@memex/queue';
import { CONFIG } from './config.module';
import { logConnectionErrors } from './connection-errors';
import { JobQueue } from './job-queue';
import { ALL_QUEUES, type AllQueues } from './queue-tokens';

export { ALL_QUEUES, type AllQueues } from './queue-tokens';

export const PRODUCER_REDIS = Symbol('PRODUCER_REDIS');
const QUEUE_NAMES = Object.values(QUEUES);
/** The @nestjs/bullmq configuration key of queues that enqueue from request paths. */
export const PRODUCER_CONFIG_KEY = 'producer';

@Global()
@Module({
  providers: [
    {
      provide: PRODUCER_REDIS,
      inject: [CONFIG],
      useFactory: (config: Config) => {
        const redis = createRedisConnection(config.REDIS_URL, 'producer');
        logConnectionErrors(redis, new Logger('Redis'), 'Redis connection error', config.REDIS_URL);
        return redis;
      },
    },
  ],
  exports: [PRODUCER_REDIS],
})
export class RedisModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(PRODUCER_REDIS) private readonly redis: IORedis) {}

  /** Producers fail fast while disconnected, so serving starts only once the connection is up. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Redis connection not ready after 10 s')), 10_000);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // BullMQ does not close a connection it was handed; it is ours to close.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  imports: [
    RedisModule,
    BullModule.forRootAsync(PRODUCER_CONFIG_KEY, {
      inject: [PRODUCER_REDIS, CONFIG],
      useFactory: (connection: IORedis, config: Config) => ({ connection, prefix: config.QUEUE_PREFIX }),
    }),
    BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name, configKey: PRODUCER_CONFIG_KEY }))),
  ],
  providers: [
    {
      provide: ALL_QUEUES,
      inject: QUEUE_NAMES.map((name) => getQueueToken(name)),
      useFactory: (...queues: Queue[]): AllQueues =>
        Object.fromEntries(QUEUE_NAMES.map((name, i) => [name, queues[i]!])) as AllQueues,
    },
    JobQueue,
  ],
  exports: [BullModule, RedisModule, ALL_QUEUES, JobQueue],
})
export class QueueModule {}
