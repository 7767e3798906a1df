import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How the stand-in `claude` behaves on its next runs. */
export type StandInMode = 'ok' | 'malformed' | 'slow' | 'failing';

export interface StandInRun {
  argv: string[];
  stdin: string;
  cwd: string;
  /** What it saw of MEMEX_HOOKS: Memex's own hooks must stand aside in its runs. */
  hooks: string | undefined;
}

const SCRIPT = `#!/usr/bin/env node
const fs = require('node:fs');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const dir = ${JSON.stringify('__DIR__')};
  const mode = fs.readFileSync(dir + '/mode', 'utf8').trim();
  fs.appendFileSync(dir + '/runs.jsonl', JSON.stringify({ argv: process.argv.slice(2), stdin: input, cwd: process.cwd(), hooks: process.env.MEMEX_HOOKS }) + '\\n');
  if (mode === 'slow') return void setTimeout(() => undefined, 60000);
  if (mode === 'failing') {
    process.stderr.write('Error: Invalid API key · Please run /login\\n');
    process.exit(1);
  }
  const answer = mode === 'malformed' ? 'I cannot answer in JSON today.' : fs.readFileSync(dir + '/answer', 'utf8');
  process.stdout.write(JSON.stringify({
    type: 'result', subtype: 'success', is_error: false, result: answer, session_id: 'standin',
    total_cost_usd: 0.0123,
    usage: { input_tokens: 900, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 80 },
  }));
});
`;

/**
 * A stand-in for the `claude` command, put on PATH by the test: it records each run (its
 * arguments, stdin, working directory) and answers as its mode says, in the shape `claude -p
 * --output-format json` prints.
 */
export class ClaudeStandIn {
  readonly dir = mkdtempSync(join(tmpdir(), 'claude-standin-'));
  private readonly originalPath = process.env.PATH;

  constructor() {
    const file = join(this.dir, 'claude');
    writeFileSync(file, SCRIPT.replace('"__DIR__"', JSON.stringify(this.dir)));
    chmodSync(file, 0o755);
    this.mode('ok');
    writeFileSync(join(this.dir, 'runs.jsonl'), '');
  }

  /** On PATH, first. */
  install(): void {
    process.env.PATH = `${this.dir}:${this.originalPath}`;
  }

  /** Off PATH again: `claude` is missing. */
  uninstall(): void {
    process.env.PATH = this.originalPath;
  }

  mode(mode: StandInMode): void {
    writeFileSync(join(this.dir, 'mode'), mode);
  }

  answer(content: string): void {
    writeFileSync(join(this.dir, 'answer'), content);
  }

  runs(): StandInRun[] {
    return readFileSync(join(this.dir, 'runs.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as StandInRun);
  }

  remove(): void {
    this.uninstall();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
