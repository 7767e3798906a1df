import type { Type } from '@nestjs/common';
import { ProjectRepository } from '@memex/db';
import { TcpProxy } from './tcp-proxy';
import { TEST_REDIS_URL, databaseEnv, openQueue, startTestApp, type TestApp } from './test-app';
import { createTestDatabase, dropRole, grantRole, uniqueName, type TestDatabase } from './test-database';

export interface TestAppContext {
  database: TestDatabase;
  server: TestApp;
  queue: Awaited<ReturnType<typeof openQueue>>;
  /** A project made for the file, with its plain key. */
  project: { projectId: string; apiKey: string };
  /** Present when asked for: Redis traffic of the app goes through it, so a test can cut it. */
  redisProxy: TcpProxy;
  /** Present when asked for: the app's PostgreSQL traffic goes through it (the test's own does not). */
  databaseProxy: TcpProxy;
  /** Present when asked for: the login role, not a superuser, the app connects as. */
  databaseRole: string;
}

/**
 * One test file's world: a fresh database, the app on it (its own queue prefix), a project,
 * and optionally a cuttable proxy in front of Redis. Filled in `beforeAll`, torn down in `afterAll`.
 */
export function useTestApp(
  features: Type[],
  /** `env` may be a function, read in `beforeAll` (after servers declared earlier have started). */
  options: {
    env?: Record<string, string | undefined> | (() => Record<string, string | undefined>);
    redisProxy?: boolean;
    databaseProxy?: boolean;
    /**
     * The app connects as a role of its own that is not a superuser, as in production: limits
     * PostgreSQL waives for superusers (a role's CONNECTION LIMIT) then apply to it.
     */
    ownRole?: boolean;
  } = {},
): TestAppContext {
  const context = {} as TestAppContext;

  beforeAll(async () => {
    context.database = await createTestDatabase();
    const env: Record<string, string | undefined> = {
      ...(typeof options.env === 'function' ? options.env() : options.env),
    };
    if (options.redisProxy && !context.database.home) {
      ({ proxy: context.redisProxy, url: env.REDIS_URL } = await proxied(TEST_REDIS_URL, 6379));
    }
    let databaseUrl = context.database.url;
    if (options.ownRole && !context.database.home) {
      context.databaseRole = uniqueName('memex_role');
      databaseUrl = await grantRole(context.database.url, context.databaseRole);
    }
    if (options.databaseProxy && !context.database.home) {
      ({ proxy: context.databaseProxy, url: databaseUrl } = await proxied(databaseUrl, 5432));
    }
    const target = context.database.home ? databaseEnv(context.database) : { DATABASE_URL: databaseUrl };
    context.server = await startTestApp(features, { ...env, ...target });
    context.queue = await openQueue(context.server);
    context.project = await context.server.app.get(ProjectRepository).createWithKey('test');
  });

  afterAll(async () => {
    await context.server?.close();
    await context.queue?.close();
    await context.redisProxy?.stop();
    await context.databaseProxy?.stop();
    await context.database?.drop();
    if (context.databaseRole) await dropRole(context.databaseRole);
  });

  return context;
}

/** A cuttable proxy in front of the server at `url`, and the same URL (its database, user and password) through it. */
async function proxied(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const through = new URL(url);
  const proxy = await new TcpProxy(through.hostname, Number(through.port || defaultPort)).start();
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  return { proxy, url: through.toString() };
}
