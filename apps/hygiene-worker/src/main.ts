import 'reflect-metadata';
import { createHttpApp, prepareRuntime, rootModule, runMain } from '@memex/server';
import { HygieneWorkerModule } from './hygiene-worker.module';

/** The worker on its own: its only HTTP endpoints are health and metrics. */
runMain(async (config) => {
  await prepareRuntime(config);
  const app = await createHttpApp(rootModule(config, [HygieneWorkerModule]), config);
  await app.listen({ host: config.HOST, port: config.PORT });
});
