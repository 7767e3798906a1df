import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Config } from '@memex/config';
import { KYSELY, ProjectRepository, RawEventRepository, SessionRepository, createDatabase, type DB } from '@memex/db';
import { CONFIG } from './config.module';

const REPOSITORIES = [ProjectRepository, SessionRepository, RawEventRepository];

@Global()
@Module({
  providers: [
    {
      provide: KYSELY,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        createDatabase({ url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE, applicationName: 'memex' }),
    },
    ...REPOSITORIES,
  ],
  exports: [KYSELY, ...REPOSITORIES],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}
