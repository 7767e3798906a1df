import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Config from '@memex/config';
import type * as Db from '@memex/db';
import type * as Server from '@memex/server';

const ROOT = join(__dirname, '..', '..');

/**
 * Builds the bundle (the tests that run entry points as real processes need it), the
 * dashboard and the CLI, then chooses the backends the suite runs on: server mode when
 * PostgreSQL and Redis answer, embedded mode (PGlite, queues in process) when they do not, so
 * `npm test` passes on a machine with nothing but Node. TEST_MODE=server or TEST_MODE=embedded
 * forces one; forced server mode with a service missing says how to start it instead of
 * letting every test file time out. Path aliases do not apply here, so the check comes from
 * the bundle. Jest starts its workers after this, with the environment it leaves.
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('npx', ['swc', 'apps', 'libs', '--out-dir', 'dist', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  // The dashboard's bundle, which brain-api serves at /ui (the browser test opens it), when older than its sources.
  execFileSync(process.execPath, [join(ROOT, 'apps', 'dashboard', 'build.mjs'), '--if-stale'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  // The CLI's build (build/cli), as `npm ci` makes it: bin/memex runs it and never builds it itself.
  execFileSync(process.execPath, [join(ROOT, 'apps', 'cli', 'build.mjs'), '--strict'], { cwd: ROOT, stdio: 'inherit' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkDependencies } = require(join(ROOT, 'dist/libs/server/src')) as typeof Server;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadConfig } = require(join(ROOT, 'dist/libs/config/src')) as typeof Config;
  const forced = process.env.TEST_MODE;
  if (forced !== undefined && forced !== 'server' && forced !== 'embedded') {
    throw new Error(`TEST_MODE must be server or embedded, not ${forced}`);
  }
  if (forced === 'embedded') return chooseEmbedded('TEST_MODE=embedded');
  const config = loadConfig({
    MEMEX_MODE: 'server',
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    REDIS_URL: process.env.TEST_REDIS_URL,
  });
  try {
    await checkDependencies(config);
    process.env.MEMEX_TEST_MODE = 'server';
  } catch (error) {
    if (forced === 'server') throw error;
    await chooseEmbedded((error as Error).message);
  }
}

async function chooseEmbedded(why: string): Promise<void> {
  process.env.MEMEX_TEST_MODE = 'embedded';
  process.stdout.write(
    `\nIntegration tests run in embedded mode (PGlite, queues in process): ${why}\n` +
      'Tests of what only server mode has are skipped, each saying why; TEST_MODE=server requires the services.\n',
  );
  process.env.MEMEX_TEST_PGLITE_TEMPLATE = await migratedTemplate();
}

/**
 * A PGlite cluster made and migrated once, closed, for each test file to copy: PGlite's initdb
 * takes seconds of CPU, a copy of its files a fraction of that (test-database.ts). Removed by
 * the global teardown.
 */
async function migratedTemplate(): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createEmbeddedDatabase, migrateInProcess } = require(join(ROOT, 'dist/libs/db/src')) as typeof Db;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { embeddedDataDir } = require(join(ROOT, 'dist/libs/server/src')) as typeof Server;
  const dataDir = embeddedDataDir({ MEMEX_HOME: mkdtempSync(join(tmpdir(), 'memex-test-template-')) });
  const db = await createEmbeddedDatabase(dataDir);
  await migrateInProcess(db);
  await db.destroy();
  return dataDir;
}
