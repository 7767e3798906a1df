import pino from 'pino';
import { pendingMigrations } from '@memex/db';
import { prepareRuntime, runMain } from '@memex/server';

const WAIT_LIMIT_MS = 10 * 60_000;

/**
 * The one-shot migration job (compose's `migrate` service, the Kubernetes Job): creates the
 * database if it is missing, applies pending migrations under an advisory lock, and exits 0.
 * The apps then start with MIGRATE_ON_START=false.
 *
 * `--wait` (the apps' init container) applies nothing: it returns once the job has brought
 * the schema up to this release, so pods wait instead of crash-looping on an old schema.
 */
runMain(async (config) => {
  // The apps' JSON log lines, without Nest: this job starts no application.
  const logger = pino({ level: config.LOG_LEVEL });
  if (process.argv.includes('--wait')) {
    const until = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const pending = await pendingMigrations(config.DATABASE_URL).catch(() => ['(database not reachable)']);
      if (pending.length === 0) return logger.info('schema is current');
      if (Date.now() > until) throw new Error(`schema still lacks ${pending.join(', ')} after 10 minutes`);
      logger.info({ pending }, 'waiting for the migration job');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  const applied = await prepareRuntime({ ...config, MIGRATE_ON_START: true }, { embedded: true });
  logger.info({ applied, count: applied.length }, 'migrations applied');
});
