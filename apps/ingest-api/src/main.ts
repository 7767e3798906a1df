import 'reflect-metadata';
import { createHttpApp, prepareRuntime, rootModule, runMain } from '@memex/server';
import { IngestApiModule } from './ingest-api.module';

runMain(async (config) => {
  await prepareRuntime(config);
  const app = await createHttpApp(rootModule(config, [IngestApiModule]), config);
  await app.listen({ host: config.HOST, port: config.PORT });
});
