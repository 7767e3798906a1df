import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntry, waitForHttp, type RunningProcess } from '../support/processes';
import { waitFor } from '../support/wait';

/**
 * The README's quick start, run as written: `npm start` (its build is the global setup's),
 * then each command of its bash blocks, verbatim, with the output the README shows. The
 * process runs in embedded mode on port 8080 with a home of its own (HOME points at a
 * temporary directory, so `~/.memex` is that one).
 */
const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('## Claude Code'));
/** Each bash block: its commands, and the output it shows as `# ` comment lines. */
const blocks = [...quickStart.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => {
  const lines = m[1]!.trimEnd().split('\n');
  return {
    commands: lines.filter((l) => !l.startsWith('# ')).join('\n'),
    shown: lines.filter((l) => l.startsWith('# ')).map((l) => l.slice(2)),
  };
});

const home = mkdtempSync(join(tmpdir(), 'memex-readme-'));
let memex: RunningProcess;

afterAll(async () => {
  memex?.child.kill('SIGTERM');
  await memex?.exited;
  rmSync(home, { recursive: true, force: true });
});

function bash(script: string): string {
  return execFileSync('bash', ['-c', `set -euo pipefail\n${script}`], {
    env: { PATH: process.env.PATH ?? '', HOME: home },
    encoding: 'utf8',
  });
}

describe('the README quick start', () => {
  it('starts with `npm ci && npm start` and needs nothing else', async () => {
    expect(blocks.map((b) => b.commands)).toEqual([
      'npm ci && npm start',
      expect.stringContaining('curl -s -X POST http://127.0.0.1:8080/api/v2/events'),
      expect.stringContaining('curl -s http://127.0.0.1:8080/api/v2/brain'),
      'npm test',
    ]);
    memex = runEntry('apps/memex/src/main.js', { HOME: home, LOG_LEVEL: 'warn' });
    await waitForHttp('http://127.0.0.1:8080/health/ready', 60_000).catch((error: Error) => {
      throw new Error(`${error.message} (is something else on port 8080?) ${memex.stderr()}`);
    });
    await waitFor(() => memex.stdout().includes('Memex is running at http://127.0.0.1:8080'), 10_000);
    expect(memex.stdout()).toContain(`data in ${join(home, '.memex')}`);
  }, 90_000);

  it('stores the demo event once, and the brain shows the item it promises', async () => {
    const [, post, brain] = blocks;
    const key = post!.commands.split('\n')[0]!;
    expect(bash(post!.commands).trim()).toBe(post!.shown[0]);
    // "Send the same body again": a duplicate.
    expect(bash(post!.commands).trim()).toBe('{"accepted":0,"duplicates":1}');
    const expected = brain!.shown.filter((line) => line !== '…' && !/\d{4}-\d{2}-\d{2}/.test(line));
    let answer = '';
    await waitFor(() => {
      answer = bash(`${key}\n${brain!.commands}`);
      return expected.every((line) => answer.includes(line));
    }, 10_000).catch(() => {
      throw new Error(`the brain does not show what the README says:\n${answer}`);
    });
  }, 30_000);
});
