import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { redactUrl } from '@memex/config';
import { ProjectRepository } from '@memex/db';
import { BrainModule } from '@memex/feature-brain';
import { EnrichmentModule } from '@memex/feature-enrichment';
import { EventsModule } from '@memex/feature-events';
import { HygienePassesModule, HygieneReviewModule } from '@memex/feature-hygiene';
import { ItemsModule } from '@memex/feature-items';
import { McpModule } from '@memex/feature-mcp';
import { OperationsModule } from '@memex/feature-operations';
import { SearchModule } from '@memex/feature-search';
import { createHttpApp, prepareRuntime, rootModule, runMain } from '@memex/server';
import { LOCAL_ADMIN_FILE, ensureLocalAdminToken } from './local-admin';
import { ensureLocalProject } from './local-project';

/** Every feature in one process, for local use: `npm start`. */
const FEATURES = [
  EventsModule,
  EnrichmentModule,
  HygienePassesModule,
  BrainModule,
  ItemsModule,
  SearchModule,
  McpModule,
  HygieneReviewModule,
  OperationsModule,
];

runMain(async (given) => {
  const applied = await prepareRuntime(given, { embedded: true });
  const localAdmin = given.MEMEX_MODE === 'embedded' && !given.MEMEX_ADMIN_TOKEN;
  const config = localAdmin
    ? { ...given, MEMEX_ADMIN_TOKEN: await ensureLocalAdminToken(given.MEMEX_LOCAL_STATE_DIR) }
    : given;
  // Requests and the workers share this thread: background work gives way to requests.
  const app = await createHttpApp(rootModule(config, FEATURES, { sharesThread: true }), config);
  await app.listen({ host: config.HOST, port: config.PORT });

  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  const url = `http://${host}:${config.PORT}`;
  const local = await ensureLocalProject(app.get(ProjectRepository), config.MEMEX_LOCAL_STATE_DIR, url);
  const keyFile = join(config.MEMEX_LOCAL_STATE_DIR, 'local-project.json');
  process.stdout.write(
    [
      '',
      `Memex is running at ${url} (all services in one process)`,
      config.MEMEX_MODE === 'embedded'
        ? `  mode:             embedded (PGlite and queues in this process), data in ${config.MEMEX_HOME}`
        : `  mode:             server (PostgreSQL at ${redactUrl(config.DATABASE_URL)}, Redis at ${redactUrl(config.REDIS_URL)})`,
      `  migrations applied now: ${applied.length ? applied.join(', ') : 'none (schema up to date)'}`,
      `  local project id: ${local.projectId}${local.created ? ' (new)' : ''}`,
      // Printed when it is made, never again: terminals, CI logs and screen shares keep what they show.
      ...(local.created
        ? [
            `  local API key:    ${local.apiKey}`,
            `                    (shown this once; kept in ${keyFile}, private to you)`,
          ]
        : [`  local API key:    kept in ${keyFile} (private to you; not printed again)`]),
      `  dashboard:        ${url}/ui (sign in with the key)`,
      ...(localAdmin
        ? [
            `  admin token:      kept in ${join(config.MEMEX_LOCAL_STATE_DIR, LOCAL_ADMIN_FILE)} (private to you; for the`,
            '                    Health page and `memex init`, which makes a project per repository)',
          ]
        : []),
      '',
      '  Try it:',
      `    KEY=$(node -p 'require(${JSON.stringify(resolve(keyFile))}).apiKey')`,
      `    curl -s -X POST ${url}/api/v2/events -H "Authorization: Bearer $KEY" \\`,
      `      -H 'Content-Type: application/json' \\`,
      `      -d '{"sessionId":"demo","events":[{"eventId":"demo-1","type":"prompt","timestamp":"${new Date().toISOString()}","content":"We decided to use Postgres for the job queue because it is already running"}]}'`,
      '',
    ].join('\n'),
  );
});
