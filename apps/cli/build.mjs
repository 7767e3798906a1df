#!/usr/bin/env node
// Builds the command line (apps/cli and the libraries it loads) into build/cli, where
// bin/memex runs it from. Run by `npm ci` (the root `prepare` script) and by `npm run
// build:cli` after changing the CLI's sources; never by a hook. The new build is written
// beside the old one and swapped in by two renames, so a hook starting meanwhile finds a
// whole build or none (and then skips quietly). Never fails an install: without swc (npm ci
// --omit=dev) or without the sources (the image's install step), it says so and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'build', 'cli');
const say = (line) => process.stderr.write(`memex: ${line}\n`);
const sources = ['apps/cli/src', 'libs'];

if (!sources.every((dir) => existsSync(join(root, dir))) || !existsSync(join(root, '.swcrc'))) {
  say('the CLI sources are not here; bin/memex is not built');
  process.exit(0);
}
let swc;
try {
  swc = createRequire(import.meta.url).resolve('@swc/cli/bin/swc.js');
} catch {
  say('swc is not installed (dev dependencies left out?): bin/memex is not built');
  process.exit(0);
}
const started = Date.now();
const fresh = `${out}.tmp-${process.pid}`;
const built = spawnSync(process.execPath, [swc, ...sources, '--out-dir', fresh, '--quiet', '--config-file', '.swcrc'], {
  cwd: root,
  encoding: 'utf8',
});
if (built.status !== 0) {
  rmSync(fresh, { recursive: true, force: true });
  say(`could not build the CLI: ${built.stderr || built.error}`);
  // An install goes on (the servers do not need the CLI); `npm run build:cli` shows the failure.
  process.exit(process.argv.includes('--strict') ? 1 : 0);
}
const old = `${out}.old-${process.pid}`;
if (existsSync(out)) renameSync(out, old);
renameSync(fresh, out);
rmSync(old, { recursive: true, force: true });
say(`CLI built into ${relative(root, out)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
