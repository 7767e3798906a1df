#!/usr/bin/env node
// Builds the dashboard bundle (apps/dashboard/dist) with Vite. Run by `npm ci` (the root
// `prepare` script), and by `npm start` and the tests with --if-stale: then only when the
// bundle is missing or older than a source file (after a pull, say). Never fails an install:
// without Vite (npm ci --omit=dev) or without the sources, it says so in one line and exits 0.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, 'dist', 'index.html');
const say = (line) => process.stderr.write(`memex: ${line}\n`);

/** The newest modification time among the bundle's sources. */
function newestSource() {
  const stamps = ['index.html', 'vite.config.mts'].map((f) => join(here, f));
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else stamps.push(path);
    }
  };
  walk(join(here, 'src'));
  return Math.max(...stamps.filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs));
}

if (process.argv.includes('--if-stale') && existsSync(bundle) && statSync(bundle).mtimeMs >= newestSource()) {
  process.exit(0);
}
if (!existsSync(join(here, 'index.html'))) {
  say('the dashboard sources are not here; /ui will not be served');
  process.exit(0);
}
let vite;
try {
  vite = await import('vite');
} catch {
  say('Vite is not installed (dev dependencies left out?): the dashboard is not built; /ui will answer 404');
  process.exit(0);
}
// A production bundle whatever the caller's NODE_ENV (jest sets `test`, which would bundle React's development build).
process.env.NODE_ENV = 'production';
const started = Date.now();
await vite.build({ root: here, mode: 'production', configFile: join(here, 'vite.config.mts'), logLevel: 'warn' });
say(`dashboard built into apps/dashboard/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
