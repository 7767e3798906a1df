import 'reflect-metadata';
import { BrainApiModule } from '../../brain-api/src';
import { EnrichmentWorkerModule } from '../../enrichment-worker/src';
import { HygieneWorkerModule } from '../../hygiene-worker/src';
import { IngestApiModule } from '../../ingest-api/src';
import { ProjectRepository } from '@memex/db';
import { createHttpApp, prepareRuntime, rootModule, runMain } from '@memex/server';
import { ensureLocalProject } from './local-project';

/**
 * Every app in one process, for local use: `npm start`. Apps of later issues join the
 * module list as they land.
 */
runMain(async (config) => {
  const applied = await prepareRuntime(config);
  const app = await createHttpApp(
    rootModule(config, [IngestApiModule, EnrichmentWorkerModule, HygieneWorkerModule, BrainApiModule]),
    config,
  );
  await app.listen({ host: config.HOST, port: config.PORT });

  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  const url = `http://${host}:${config.PORT}`;
  const local = await ensureLocalProject(app.get(ProjectRepository), config.MEMEX_LOCAL_STATE_DIR, url);
  process.stdout.write(
    [
      '',
      `Memex is running at ${url} (all services in one process)`,
      `  migrations applied now: ${applied.length ? applied.join(', ') : 'none (schema up to date)'}`,
      `  local project id: ${local.projectId}${local.created ? ' (new)' : ''}`,
      `  local API key:    ${local.apiKey}`,
      `                    (kept in ${config.MEMEX_LOCAL_STATE_DIR}/local-project.json; treat it as a secret)`,
      `  dashboard:        ${url}/ui (sign in with the key)`,
      '',
      '  Try it:',
      `    curl -s -X POST ${url}/api/v2/events -H 'Authorization: Bearer ${local.apiKey}' \\`,
      `      -H 'Content-Type: application/json' \\`,
      `      -d '{"sessionId":"demo","events":[{"eventId":"demo-1","type":"prompt","timestamp":"${new Date().toISOString()}","content":"We decided to use Postgres"}]}'`,
      '',
    ].join('\n'),
  );
});
