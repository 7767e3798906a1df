import 'reflect-metadata';
import { createHttpApp, prepareRuntime, rootModule, runMain } from '@memex/server';
import { BrainApiModule } from './brain-api.module';

runMain(async (config) => {
  await prepareRuntime(config);
  const app = await createHttpApp(rootModule(config, [BrainApiModule]), config);
  await app.listen({ host: config.HOST, port: config.PORT });
});
