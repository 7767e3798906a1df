import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  api,
  labelledSessions,
  loadSession,
  skippedWithoutTranscripts,
  startForRealSessions,
  type StoredItem,
} from '../support/real-sessions';
import type { BenchServer } from '../support/server-process';
import { brainLines, itemText, looksLikeJunk, states, type SessionLabels } from './judge';
import { judgementKey, loadJudgements, type Judgement, type Verdict } from './judgements';

/**
 * What Memex remembers of real Claude Code sessions. Each labelled transcript in
 * ../shared/realdata/transcripts and transcripts-more is sent through the events API as the
 * hooks send it, into a project of its own, on the all-in-one process with whichever engine
 * the environment configures; once enrichment has caught up, the stored items and the brain
 * are read back through the API and compared with the team's labels (bench/quality/labels)
 * and with the team's judgements of each stored item (bench/quality/judgements.json). The
 * whole set runs BENCH_QUALITY_RUNS times (3): every run must store the same items.
 */

const ROOT = join(__dirname, '..', '..', '..');
const JUDGEMENTS = join(ROOT, 'bench', 'quality', 'judgements.json');
const RUNS = Number(process.env.BENCH_QUALITY_RUNS ?? 3);
/** Where to write the items no judgement covers yet, for the judges (optional). */
const UNJUDGED = process.env.BENCH_QUALITY_UNJUDGED;
const BUDGETS = [2000, 6000] as const;
/** Where to write each session's items and brains for reading (optional). */
const DUMP = process.env.BENCH_QUALITY_DUMP;

type Item = StoredItem;

interface Result {
  name: string;
  cohort: string;
  judged: Record<Verdict, number>;
  unjudged: Array<Omit<Judgement, 'verdict' | 'why'>>;
  /** The stored items, as a run compares them with another. */
  fingerprint: string[];
  facts: number;
  found: number;
  inBrain: Record<(typeof BUDGETS)[number], number>;
  items: number;
  matching: number;
  unverified: number;
  junk: string[];
  unmatched: string[];
  missed: string[];
}

/** The engines that wrote the items, as item history names them (`enrichment:local`). */
async function enginesThatRan(databaseUrl: string): Promise<string> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ actor: string }>(
      "select distinct actor from item_history where actor like 'enrichment:%' order by actor",
    );
    return rows.map((r) => r.actor.slice('enrichment:'.length)).join(', ') || 'none (no items)';
  } finally {
    await db.end();
  }
}

async function measure(
  server: BenchServer,
  labels: SessionLabels,
  judgements: ReadonlyMap<string, Judgement>,
  run: number,
): Promise<Result> {
  const name = labels.transcript.replace(/\.jsonl$/, '');
  const { apiKey, events, items } = await loadSession(server, labels.transcript, `${name.slice(0, 190)} #${run}`);

  const contents = new Map(events.map((e) => [e.eventId, e.content.replace(/\s+/g, ' ')]));
  const verified = (i: Item) =>
    i.evidenceSpans.some((s) => contents.get(s.eventId)?.includes(s.quote.replace(/\s+/g, ' ').trim()) ?? false);
  const brains = new Map<number, string[]>();
  for (const budget of BUDGETS) {
    const doc = await api<string>(server, `/api/v2/brain?tokenBudget=${budget}`, apiKey, {
      headers: { accept: 'text/markdown' },
    });
    brains.set(budget, brainLines(doc));
    if (DUMP) writeFileSync(join(DUMP, `${name}.brain-${budget}.md`), doc);
  }
  if (DUMP) writeFileSync(join(DUMP, `${name}.items.json`), JSON.stringify(items, null, 2));
  const texts = items.map((i) => ({ item: i, text: itemText(i) }));
  const matches = (i: { text: string }) => labels.facts.some((f) => states(f, i.text));
  const judged: Record<Verdict, number> = { useful: 0, marginal: 0, junk: 0 };
  const unjudged: Result['unjudged'] = [];
  for (const item of items) {
    const key = judgementKey(name, item);
    const verdict = judgements.get(key)?.verdict;
    if (verdict) judged[verdict] += 1;
    else unjudged.push({ key, session: name, type: item.type, title: item.title, facts: item.facts });
  }
  return {
    name,
    cohort: labels.cohort ?? 'before issue 25',
    judged,
    unjudged,
    fingerprint: items.map((i) => `${i.type}|${i.status}|${i.title}|${i.facts}|${i.rationale ?? ''}`).sort(),
    facts: labels.facts.length,
    found: labels.facts.filter((f) => texts.some((t) => states(f, t.text))).length,
    inBrain: {
      2000: labels.facts.filter((f) => brains.get(2000)!.some((l) => states(f, l))).length,
      6000: labels.facts.filter((f) => brains.get(6000)!.some((l) => states(f, l))).length,
    },
    items: items.length,
    matching: texts.filter(matches).length,
    unverified: items.filter((i) => !verified(i)).length,
    junk: items.filter((i) => looksLikeJunk(i.title)).map((i) => i.title),
    unmatched: texts.filter((t) => !matches(t)).map((t) => `${t.item.type}: ${t.item.title}`),
    missed: labels.facts.filter((f) => !texts.some((t) => states(f, t.text))).map((f) => f.id),
  };
}

const ratio = (a: number, b: number) => (b === 0 ? '—' : (a / b).toFixed(2));

type Row = Pick<Result, 'name' | 'facts' | 'found' | 'inBrain' | 'items' | 'matching' | 'unverified' | 'judged'> & {
  junk: number;
  unjudged: number;
};

function row(r: Row): string {
  const judgedCount = r.judged.useful + r.judged.marginal + r.judged.junk;
  return (
    r.name.slice(0, 52).padEnd(54) +
    String(r.facts).padStart(5) +
    ratio(r.found, r.facts).padStart(8) +
    ratio(r.inBrain[2000], r.facts).padStart(9) +
    ratio(r.inBrain[6000], r.facts).padStart(9) +
    String(r.items).padStart(6) +
    ratio(r.matching, r.items).padStart(7) +
    ratio(r.judged.useful, judgedCount).padStart(8) +
    ratio(r.judged.marginal, judgedCount).padStart(9) +
    ratio(r.judged.junk, judgedCount).padStart(6) +
    String(r.unjudged).padStart(10) +
    String(r.unverified).padStart(8) +
    String(r.junk).padStart(6)
  );
}

function total(name: string, results: readonly Result[]): Row {
  const sum = (f: (r: Result) => number) => results.reduce((s, r) => s + f(r), 0);
  return {
    name,
    facts: sum((r) => r.facts),
    found: sum((r) => r.found),
    inBrain: { 2000: sum((r) => r.inBrain[2000]), 6000: sum((r) => r.inBrain[6000]) },
    items: sum((r) => r.items),
    matching: sum((r) => r.matching),
    judged: {
      useful: sum((r) => r.judged.useful),
      marginal: sum((r) => r.judged.marginal),
      junk: sum((r) => r.judged.junk),
    },
    unjudged: sum((r) => r.unjudged.length),
    unverified: sum((r) => r.unverified),
    junk: sum((r) => r.junk.length),
  };
}

function print(results: Result[], engine: string, sameItems: string): void {
  console.log(`bench:quality — engine: ${engine}; ${results.length} real Claude Code sessions`);
  console.log(
    'session'.padEnd(54) +
      'facts  recall  brain@2k brain@6k items  label  useful marginal  junk  unjudged  unver. junkT',
  );
  for (const r of results) console.log(row({ ...r, junk: r.junk.length, unjudged: r.unjudged.length }));
  console.log('');
  // The sessions labelled before the engine was last tuned, and those labelled after: the gap is overfitting.
  const cohorts = [...new Set(results.map((r) => r.cohort))].sort();
  for (const cohort of cohorts) {
    const some = results.filter((r) => r.cohort === cohort);
    console.log(row(total(`${cohort} (${some.length} sessions)`, some)));
  }
  console.log(row(total(`ALL (${results.length} sessions; every fact and item once)`, results)));
  console.log(
    '\nlabel = items stating a labelled fact; useful/marginal/junk = judged shares of the judged items (RUBRIC.md);',
  );
  console.log('unver. = items whose evidence is not verbatim in the events; junkT = junk titles by the title rule.');
  console.log(`Runs: ${RUNS}; ${sameItems}`);
  console.log('\nItems that match no labelled fact:');
  for (const r of results) for (const t of r.unmatched) console.log(`  [${r.name.slice(0, 24)}] ${t.slice(0, 150)}`);
  console.log('\nLabelled facts no item states:');
  for (const r of results) if (r.missed.length) console.log(`  [${r.name.slice(0, 24)}] ${r.missed.join(', ')}`);
  const junk = results.flatMap((r) => r.junk);
  if (junk.length) console.log(`\nJunk titles:\n${junk.map((t) => `  ${t}`).join('\n')}`);
  const unjudged = results.flatMap((r) => r.unjudged);
  if (unjudged.length) {
    console.log(`\nItems not judged yet (${unjudged.length}; judge them by reading, see RUBRIC.md):`);
    for (const u of unjudged) console.log(`  [${u.session.slice(0, 24)}] ${u.key} ${u.type}: ${u.title.slice(0, 120)}`);
  }
}

/** Whether every run stored the same items for every session; the sessions where they differed. */
function sameAcrossRuns(runs: readonly Result[][]): string {
  const differing = runs[0]!.filter((r, i) =>
    runs.some((other) => other[i]!.fingerprint.join('\n') !== r.fingerprint.join('\n')),
  );
  return differing.length === 0
    ? 'every run stored the same items'
    : `items differed between runs in ${differing.length} sessions: ${differing.map((r) => r.name).join(', ')}`;
}

async function main(): Promise<void> {
  if (skippedWithoutTranscripts('bench:quality')) return;
  if (DUMP) mkdirSync(DUMP, { recursive: true });
  const labels = labelledSessions();
  const judgements = loadJudgements(JUDGEMENTS);
  const server = await startForRealSessions('quality');
  try {
    const runs: Result[][] = [];
    for (let run = 1; run <= Math.max(1, RUNS); run += 1) {
      const results: Result[] = [];
      for (const l of labels) results.push(await measure(server, l, judgements, run));
      runs.push(results);
    }
    print(runs[0]!, await enginesThatRan(server.databaseUrl), sameAcrossRuns(runs));
    if (UNJUDGED)
      writeFileSync(
        UNJUDGED,
        JSON.stringify(
          runs[0]!.flatMap((r) => r.unjudged),
          null,
          2,
        ),
      );
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
