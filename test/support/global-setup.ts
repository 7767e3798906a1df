import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type * as Config from '@memex/config';
import type * as Server from '@memex/server';

const ROOT = join(__dirname, '..', '..');

/**
 * Builds the bundle (the tests that run entry points as real processes need it), the
 * dashboard and the CLI, then
 * checks PostgreSQL and Redis answer, saying clearly how to start them instead of letting
 * every test file time out. Path aliases do not apply here, so the check comes from the bundle.
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
  await checkDependencies(
    loadConfig({ DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL }),
  );
}
