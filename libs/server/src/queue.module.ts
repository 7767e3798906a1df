import { BullModule, getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type IORedis from 'ioredis';
import type { Config } from '@memex/config';
import { InProcessQueue, QUEUES, createRedisConnection, type QueuePort } from '@memex/queue';
import { CONFIG } from './config.module';
import { logConnectionErrors, throttledWarning } from './connection-errors';
import { JobQueue } from './job-queue';
import { ALL_QUEUES, type AllQueues } from './queue-tokens';
import { MemorySharedCache, RedisSharedCache, SHARED_CACHE, type SharedCache } from './shared-cache';

export { ALL_QUEUES, type AllQueues } from './queue-tokens';

/** The producers' Redis connection in server mode; `null` in embedded mode, where there is no Redis. */
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

/** Server mode: BullMQ queues on Redis. */
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
      useFactory: (...queues: Queue[]): AllQueues => {
        // A Queue with no error listener has BullMQ print each failed reconnect as a raw stack
        // trace, lines outside the JSON log; with one, a warning now and then.
        const logger = new Logger('Queue');
        for (const queue of queues) queue.on('error', throttledWarning(logger, 'queue connection error'));
        // BullMQ's Queue is the port as it stands.
        const ports: QueuePort[] = queues;
        return Object.fromEntries(QUEUE_NAMES.map((name, i) => [name, ports[i]!])) as AllQueues;
      },
    },
    JobQueue,
    {
      provide: SHARED_CACHE,
      inject: [PRODUCER_REDIS],
      useFactory: (redis: IORedis): SharedCache =>
        new RedisSharedCache(redis, (error) =>
          new Logger('SharedCache').warn({ err: error.message }, 'cache write failed'),
        ),
    },
  ],
  exports: [BullModule, RedisModule, ALL_QUEUES, JobQueue, SHARED_CACHE],
})
class BullQueueModule {}

/** Embedded mode's queues, closed (running jobs finished) when the process stops. */
@Injectable()
class InProcessQueues implements OnApplicationShutdown {
  readonly queues = Object.fromEntries(QUEUE_NAMES.map((name) => [name, new InProcessQueue(name)])) as Record<
    (typeof QUEUE_NAMES)[number],
    InProcessQueue
  >;

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
  }
}

/** Embedded mode: the same queues in this process, and no Redis. */
@Global()
@Module({
  providers: [
    InProcessQueues,
    { provide: ALL_QUEUES, inject: [InProcessQueues], useFactory: (q: InProcessQueues): AllQueues => q.queues },
    { provide: PRODUCER_REDIS, useValue: null },
    { provide: SHARED_CACHE, useValue: new MemorySharedCache() },
    JobQueue,
  ],
  exports: [ALL_QUEUES, PRODUCER_REDIS, JobQueue, SHARED_CACHE],
})
class InProcessQueueModule {}

/** The job queues behind `JobQueue`: BullMQ on Redis in server mode, in process in embedded mode. */
@Module({})
export class QueueModule {
  static forRoot(config: Config): DynamicModule {
    const chosen = config.MEMEX_MODE === 'embedded' ? InProcessQueueModule : BullQueueModule;
    return { module: QueueModule, global: true, imports: [chosen], exports: [chosen] };
  }
}
