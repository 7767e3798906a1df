import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { ConfigError, loadConfig, redactUrl, type Config } from '@memex/config';
import {
  MigrationError,
  createDatabase,
  createEmbeddedDatabase,
  ensureDatabaseExists,
  migrateInProcess,
  migrateToLatest,
  pendingMigrations,
  type DB,
  type MigrationOutcome,
} from '@memex/db';
import type { Kysely } from 'kysely';
import { embeddedDataDir } from './embedded-home';
import { HomeLockedError, lockHome } from './home-lock';
import { PlatformModule } from './platform.module';
import type { ProcessShape } from './background-pace';
import { DependencyUnavailableError, checkDependencies } from './preflight';

/**
 * What every process does before Nest starts: dependencies answer, database exists, schema
 * current. In embedded mode only a process that runs everything may start (`embedded: true`):
 * the database is in process, so a split service would have nothing to share it with.
 */
export async function prepareRuntime(config: Config, options: { embedded?: boolean } = {}): Promise<string[]> {
  if (config.MEMEX_MODE === 'embedded') {
    if (!options.embedded) {
      throw new DependencyUnavailableError(
        'this service runs beside PostgreSQL and Redis: set DATABASE_URL and REDIS_URL (or MEMEX_MODE=server). ' +
          '`npm start` runs every service in one process without them.',
      );
    }
    return prepareEmbedded(config);
  }
  await checkDependencies(config);
  if (!config.MIGRATE_ON_START) {
    const pending = await pendingMigrations(config.DATABASE_URL);
    if (pending.length > 0) {
      throw new MigrationError(
        `the schema lacks ${pending.join(', ')} and MIGRATE_ON_START=false: run the migration job first (APP=migrate)`,
        [],
      );
    }
    return [];
  }
  try {
    await ensureDatabaseExists(config.DATABASE_URL);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    throw new DependencyUnavailableError(
      `cannot create the database of ${redactUrl(config.DATABASE_URL)} (${e.code ?? e.message}): ` +
        'create it yourself, or give the user the CREATEDB privilege',
    );
  }
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'memex-migrate' });
  return migrateThenClose(db, () => migrateToLatest(db, config.DATABASE_URL));
}

/** Runs the migration, says when the database is ahead of this release, and closes it. */
async function migrateThenClose(db: Kysely<DB>, migrate: () => Promise<MigrationOutcome>): Promise<string[]> {
  try {
    const { applied, newer } = await migrate();
    if (newer.length > 0) {
      process.stderr.write(
        `memex: the database is ahead of this release (${newer.join(', ')}); running on it as it is\n`,
      );
    }
    return applied;
  } finally {
    await db.destroy();
  }
}

/**
 * Embedded mode: takes MEMEX_HOME for this process (a second process on it is refused) and
 * brings its database up to this release.
 */
async function prepareEmbedded(config: Config): Promise<string[]> {
  lockHome(config.MEMEX_HOME);
  const db = await createEmbeddedDatabase(embeddedDataDir(config));
  return migrateThenClose(db, () => migrateInProcess(db));
}

@Module({})
class RootModule {}

/** The platform plus the feature modules one process runs. */
export function rootModule(config: Config, features: Type[], shape: ProcessShape = {}): DynamicModule {
  return { module: RootModule, imports: [PlatformModule.forRoot(config, shape), ...features] };
}

/**
 * Runs an entry point: configuration and dependency problems end the process with their
 * own clear message instead of a stack trace.
 */
export function runMain(main: (config: Config) => Promise<void>): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`memex: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Nest drains on SIGTERM; this bounds how long that may take, whatever hangs.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        process.stderr.write(`memex: still draining ${config.SHUTDOWN_TIMEOUT_MS} ms after ${signal}; exiting now\n`);
        process.exit(1);
      }, config.SHUTDOWN_TIMEOUT_MS).unref();
    });
  }
  main(config).catch((error: unknown) => {
    if (
      error instanceof DependencyUnavailableError ||
      error instanceof MigrationError ||
      error instanceof HomeLockedError
    ) {
      process.stderr.write(`memex: ${error.message}\n`);
    } else process.stderr.write(`memex: start-up failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
