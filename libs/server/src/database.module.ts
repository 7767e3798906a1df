import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import type { Config } from '@memex/config';
import {
  EmbeddingRepository,
  EnrichmentRepository,
  EntityCursorRepository,
  EntityRepository,
  HygieneReviewRepository,
  HygieneRunRepository,
  ItemChanges,
  KYSELY,
  MemoryItemAdminRepository,
  MemoryItemRepository,
  ModelUsageRepository,
  PG_POOL,
  ProjectRepository,
  ProjectStatusRepository,
  QuoteRepository,
  RawEventRepository,
  RedactionPassRepository,
  SearchRepository,
  SessionRepository,
  createPool,
  kyselyOver,
  NOTIFICATIONS,
  listenForNotifications,
  openEmbeddedPool,
  type DB,
  type NotificationSource,
} from '@memex/db';
import { CONFIG } from './config.module';
import { throttledWarning } from './connection-errors';
import { embeddedDataDir } from './embedded-home';

const REPOSITORIES = [
  ItemChanges,
  ProjectRepository,
  ProjectStatusRepository,
  QuoteRepository,
  SessionRepository,
  RawEventRepository,
  MemoryItemRepository,
  MemoryItemAdminRepository,
  EnrichmentRepository,
  EntityRepository,
  EntityCursorRepository,
  ModelUsageRepository,
  EmbeddingRepository,
  SearchRepository,
  HygieneRunRepository,
  HygieneReviewRepository,
  RedactionPassRepository,
];

@Global()
@Module({
  providers: [
    {
      provide: PG_POOL,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        config.MEMEX_MODE === 'embedded'
          ? openEmbeddedPool(embeddedDataDir(config))
          : createPool({
              url: config.DATABASE_URL,
              poolSize: config.DB_POOL_SIZE,
              applicationName: 'memex',
              onConnectionError: throttledWarning(
                new Logger('Database'),
                'a database connection broke; the pool opens a new one',
                config.DATABASE_URL,
              ),
            }),
    },
    {
      provide: NOTIFICATIONS,
      inject: [PG_POOL, CONFIG],
      useFactory: (pool: Pool, config: Config): NotificationSource => ({
        listen: (channel, handlers) => listenForNotifications(pool, config.DATABASE_URL, channel, handlers),
      }),
    },
    {
      provide: KYSELY,
      inject: [PG_POOL],
      useFactory: (pool: Pool) => kyselyOver(pool),
    },
    ...REPOSITORIES,
  ],
  exports: [KYSELY, PG_POOL, NOTIFICATIONS, ...REPOSITORIES],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}
