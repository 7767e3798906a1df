import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawEventInput } from '@memex/domain';
import { Redactor, addCounts, redactEventBatch, type RedactionCounts } from '@memex/redaction';
import { transcriptToEvents } from '@memex/transcript';
import { textOfLength } from '../../libs/redaction/src/adversarial.fixture';
import { nearMisses, secretCorpus } from '../../libs/redaction/src/secret-corpus.fixture';
import { ingestBatch } from '../support/ingest-load';
import { fmt } from '../support/stats';
import { growth } from './growth';
import { liveDuringBatch } from './live';

/**
 * What redaction costs on the ingest path, in the process alone: batches of 100 events
 * through redactEventBatch (content, metadata, branch), as ingest and the hook client run it.
 * Three loads: bench:ingest's events, the real Claude Code transcripts of shared/realdata (when
 * that folder is beside the clone, or MEMEX_REALDATA_DIR points at one), and the secret
 * corpus of the tests. Each is redacted REPEATS times after one warm-up pass. Then issue 29's
 * adversarial batch (48 events of 99,000 characters of `KEY=`, and of the slowest text known)
 * against a batch of ordinary text of the same size, the same batches posted to the all-in-one
 * process while `/health/live` is probed (live.ts), and how redaction's time grows on every
 * adversarial text (growth.ts).
 */
const ROOT = join(__dirname, '..', '..', '..');
const TRANSCRIPTS = process.env.MEMEX_REALDATA_DIR ?? join(ROOT, '..', 'shared', 'realdata', 'transcripts');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const BATCH = 100;

interface Load {
  name: string;
  events: RawEventInput[];
}

function loads(): Load[] {
  const ingest = Array.from({ length: 20 }, (_, i) => ingestBatch(i).events as RawEventInput[]).flat();
  const corpus = secretCorpus().map((sample, i): RawEventInput => ({
    eventId: `corpus-${i}`,
    type: 'prompt',
    timestamp: '2026-11-21T09:00:00Z',
    content: sample.text,
    metadata: { tool: 'Bash', input: { command: sample.text.split('\n')[0] } },
  }));
  const all: Load[] = [{ name: 'bench:ingest events (~1 KB)', events: ingest }];
  if (existsSync(TRANSCRIPTS)) {
    const files = readdirSync(TRANSCRIPTS).filter((f) => f.endsWith('.jsonl'));
    const real = files.flatMap((f) => transcriptToEvents(readFileSync(join(TRANSCRIPTS, f), 'utf8')));
    all.push({ name: `real Claude Code transcripts (${files.length})`, events: real });
  } else {
    console.log(`(no real transcripts at ${TRANSCRIPTS}: set MEMEX_REALDATA_DIR to include them)`);
  }
  all.push({ name: 'secret corpus', events: corpus });
  return all;
}

async function redactAll(redactor: Redactor, events: RawEventInput[]): Promise<RedactionCounts> {
  const counts: RedactionCounts = {};
  for (let i = 0; i < events.length; i += BATCH) {
    const { counts: found } = await redactEventBatch(redactor, { branch: 'main', events: events.slice(i, i + BATCH) });
    addCounts(counts, found);
  }
  return counts;
}

/**
 * What a hook process pays, which starts afresh each time: loading the library, then
 * redacting the fixture transcript the hook benchmark uses (240 lines), the first time.
 */
function coldStart(): { loadMs: number; firstMs: number } {
  const script = `
    const started = performance.now();
    const { Redactor, redactEventBatch } = require(${JSON.stringify(join(ROOT, 'dist', 'libs', 'redaction', 'src'))});
    const loaded = performance.now();
    const { transcriptToEvents } = require(${JSON.stringify(join(ROOT, 'dist', 'libs', 'transcript', 'src'))});
    const fixture = require('node:fs').readFileSync(${JSON.stringify(join(ROOT, 'test', 'fixtures', 'claude-code', 'session-discount-fix.jsonl'))}, 'utf8');
    const events = transcriptToEvents(fixture.repeat(10));
    const before = performance.now();
    redactEventBatch(new Redactor(), { events }).then(() =>
      process.stdout.write(JSON.stringify({ loadMs: loaded - started, firstMs: performance.now() - before })));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    loadMs: number;
    firstMs: number;
  };
}

/** 48 events of 99,000 characters of `text` repeated: 4.75 MB, within ingest's limits. */
function bigBatch(text: string): RawEventInput[] {
  return Array.from({ length: 48 }, (_, i) => ({
    eventId: `big-${i}-${text.length}`,
    type: 'prompt',
    timestamp: '2026-11-21T09:00:00Z',
    content: textOfLength(text, 99_000),
  }));
}

/** The fastest of three redactions of the batch, in seconds. */
async function batchSeconds(redactor: Redactor, events: RawEventInput[]): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = process.hrtime.bigint();
    await redactEventBatch(redactor, { events });
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
  }
  return best;
}

async function adversarial(redactor: Redactor): Promise<void> {
  const ordinary = [...secretCorpus().map((s) => s.text), ...nearMisses().map((n) => n.text)].join('\n\n') + '\n\n';
  const reference = await batchSeconds(redactor, bigBatch(ordinary));
  console.log(`  48 events × 99,000 characters (4.75 MB), fastest of 3:`);
  console.log(`    ordinary text with secrets: ${fmt(reference * 1000, 0)} ms`);
  for (const unit of ['KEY=', 'AKIAAAAAAAAAAAAAAAAA ']) {
    const seconds = await batchSeconds(redactor, bigBatch(unit));
    console.log(
      `    ${JSON.stringify(unit)} repeated: ${fmt(seconds * 1000, 0)} ms, ${fmt(seconds / reference, 1)} × ordinary text`,
    );
  }
}

async function main(): Promise<void> {
  const redactor = new Redactor();
  await redactor.warm();
  console.log(`bench:redaction — redactEventBatch in one process, ${REPEATS} passes after a warm-up`);
  for (const { name, events } of loads()) {
    const bytes = events.reduce(
      (n, e) => n + Buffer.byteLength(e.content) + Buffer.byteLength(JSON.stringify(e.metadata ?? {})),
      0,
    );
    const looked = events.filter((e) => redactor.mayChange(e.content) || redactor.mayChange(e.metadata)).length;
    const counts = await redactAll(redactor, events);
    const started = process.hrtime.bigint();
    for (let r = 0; r < REPEATS; r++) await redactAll(redactor, events);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9 / REPEATS;
    const found = Object.entries(counts)
      .sort(([, a], [, b]) => b - a)
      .map(([kind, n]) => `${kind} ${n}`);
    console.log(`  ${name}: ${fmt(events.length, 0)} events, ${fmt(bytes / 1024, 0)} KB`);
    console.log(
      `    ${fmt((seconds * 1e6) / events.length, 2)} µs per event, ${fmt(bytes / 1024 / 1024 / seconds, 1)} MB/s; ` +
        `${fmt((100 * looked) / events.length, 1)} % of events looked at by a rule`,
    );
    console.log(`    redacted: ${found.length ? found.join(', ') : 'nothing'}`);
  }
  await adversarial(redactor);
  await liveDuringBatch(bigBatch);
  await growth(redactor);
  const runs = Array.from({ length: 5 }, coldStart);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
  console.log(
    `  a fresh process (a hook), median of 5: loading the library ${fmt(median(runs.map((r) => r.loadMs)), 1)} ms, ` +
      `then redacting a 240-line transcript the first time ${fmt(median(runs.map((r) => r.firstMs)), 1)} ms`,
  );
}

void main();
