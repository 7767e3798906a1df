import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Kysely, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import type { Config } from '@memex/config';
import {
  EmbeddingRepository,
  EnrichmentRepository,
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
  openEmbeddedPool,
  type DB,
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
      provide: KYSELY,
      inject: [PG_POOL],
      useFactory: (pool: Pool) => new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
    },
    ...REPOSITORIES,
  ],
  exports: [KYSELY, PG_POOL, ...REPOSITORIES],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}
