#!/usr/bin/env node
// Builds the dashboard bundle (apps/dashboard/dist) with Vite. Run by `npm ci` (the root
// `prepare` script) and by `npm start` with --if-missing. Never fails an install: without
// Vite (npm ci --omit=dev) or without the sources, it says so in one line and exits 0.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, 'dist', 'index.html');
const say = (line) => process.stderr.write(`memex: ${line}\n`);

if (process.argv.includes('--if-missing') && existsSync(bundle)) process.exit(0);
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
const started = Date.now();
await vite.build({ root: here, configFile: join(here, 'vite.config.mts'), logLevel: 'warn' });
say(`dashboard built into apps/dashboard/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
