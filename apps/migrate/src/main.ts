import { prepareRuntime, runMain } from '@memex/server';

/**
 * The one-shot migration job (compose's `migrate` service, the Kubernetes Job): creates the
 * database if it is missing, applies pending migrations under an advisory lock, and exits 0.
 * The apps then start with MIGRATE_ON_START=false.
 */
runMain(async (config) => {
  const applied = await prepareRuntime({ ...config, MIGRATE_ON_START: true });
  process.stdout.write(
    `${JSON.stringify({ level: 30, time: Date.now(), msg: 'migrations applied', applied, count: applied.length })}\n`,
  );
});
