import { BullModule } from '@nestjs/bullmq';
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type IORedis from 'ioredis';
import type { Config } from '@memex/config';
import { QUEUES, createRedisConnection } from '@memex/queue';
import { CONFIG } from './config.module';

export const PRODUCER_REDIS = Symbol('PRODUCER_REDIS');
/** The @nestjs/bullmq configuration key of queues that enqueue from request paths. */
export const PRODUCER_CONFIG_KEY = 'producer';

@Global()
@Module({
  providers: [
    {
      provide: PRODUCER_REDIS,
      inject: [CONFIG],
      useFactory: (config: Config) => createRedisConnection(config.REDIS_URL, 'producer'),
    },
  ],
  exports: [PRODUCER_REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(PRODUCER_REDIS) private readonly redis: IORedis) {}

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
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name, configKey: PRODUCER_CONFIG_KEY }))),
  ],
  exports: [BullModule, RedisModule],
})
export class QueueModule {}
