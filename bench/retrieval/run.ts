import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase } from '@memex/db';
import { itemText, states, type LabelledFact, type SessionLabels } from '../quality/judge';
import { seedSearchCorpus } from '../search/corpus';
import {
  api,
  labelledSessions,
  loadSession,
  skippedWithoutTranscripts,
  startForRealSessions,
  type StoredItem,
} from '../support/real-sessions';
import { embeddingsCaughtUp } from '../support/poll-database';
import type { BenchServer } from '../support/server-process';
import { fmt } from '../support/stats';

/**
 * Whether a question in a developer's own words finds what the memory holds. Each labelled
 * session of bench:quality goes into a project of its own (as one project per repository
 * would); then every question written for its labelled facts (bench/retrieval/questions, one
 * per fact, in plain words) is asked of search (top 5) and of a context pack (1,500 tokens,
 * items only: the session's own recent events would hold every answer). A fact stored in no
 * item cannot be found, so the share of facts some item states is printed beside, and the
 * ratio of each recall to it. Nonsense and off-topic queries (bench/retrieval/nonsense.json,
 * and nonsense-late.json, written after the floors were chosen) must find nothing. Then each project is mixed with BENCH_RETRIEVAL_MIX (10,000) items of
 * bench:search's corpus and the questions are asked again: in a small project a pack shows
 * nearly everything, so ranking is only tested in a large one.
 */

const ROOT = join(__dirname, '..', '..', '..');
const QUESTIONS = join(ROOT, 'bench', 'retrieval', 'questions');
/** The first twelve off-topic queries, and twelve written later to check floors chosen on the first. */
const NONSENSE = [
  { file: join(ROOT, 'bench', 'retrieval', 'nonsense.json'), name: 'Nonsense and off-topic queries' },
  { file: join(ROOT, 'bench', 'retrieval', 'nonsense-late.json'), name: 'Off-topic queries written later' },
];
const MIX = Number(process.env.BENCH_RETRIEVAL_MIX ?? 10_000);
const SEARCH_TOP = 5;
const PACK_TOKENS = 1500;
/** Lines of a pack that come from memory (recent events are left out of the request). */
const MEMORY_COMPONENTS = new Set(['semantic', 'entity', 'relation', 'pattern']);

interface Question {
  fact: string;
  question: string;
}

interface SessionSet {
  labels: SessionLabels;
  questions: Question[];
}

interface Asked {
  session: string;
  cohort: string;
  fact: LabelledFact;
  question: string;
  stored: boolean;
  search: boolean;
  pack: boolean;
  /** For a stored fact search's top 5 missed: the rank of its first answer among 50, if any. */
  rank?: number | null;
  /** For such a miss: what search ranked first, down to the answer (BENCH_RETRIEVAL_MISSES). */
  ranked?: Array<{ title: string; answers: boolean; scores: Result['scores'] }>;
}

interface Project {
  set: SessionSet;
  projectId: string;
  apiKey: string;
  items: StoredItem[];
}

function loadSets(): SessionSet[] {
  const byTranscript = new Map<string, Question[]>();
  for (const file of readdirSync(QUESTIONS).filter((f) => f.endsWith('.json'))) {
    const q = JSON.parse(readFileSync(join(QUESTIONS, file), 'utf8')) as { transcript: string; questions: Question[] };
    byTranscript.set(q.transcript, q.questions);
  }
  return labelledSessions().flatMap((labels) => {
    const questions = byTranscript.get(labels.transcript);
    return questions ? [{ labels, questions }] : [];
  });
}

interface Result {
  itemId: string;
  scores: { fullText: number | null; vector: number | null };
}

/** Each source's score of the results that answered a question, and of those a nonsense query got. */
const seen = {
  answers: [] as Result['scores'][],
  nonsense: [] as Result['scores'][],
  questions: [] as Array<Array<Result['scores'] & { answers: boolean }>>,
  byQuery: [] as Array<{ q: string; scores: Result['scores'][] }>,
};

async function searchResults(server: BenchServer, key: string, q: string, limit: number): Promise<Result[]> {
  const body = await api<{ results: Result[] }>(
    server,
    `/api/v2/search?q=${encodeURIComponent(q)}&limit=${limit}`,
    key,
  );
  return body.results;
}

async function packLines(server: BenchServer, key: string, query: string): Promise<string[]> {
  const pack = await api<{ components: Array<{ type: string; content: string }> }>(
    server,
    '/api/v2/context-pack',
    key,
    {
      method: 'POST',
      body: JSON.stringify({ query, maxTokens: PACK_TOKENS, filters: { includeRecent: false } }),
    },
  );
  return pack.components.filter((c) => MEMORY_COMPONENTS.has(c.type)).map((c) => c.content);
}

/** Every question of a project, asked of search and of a pack. */
async function ask(server: BenchServer, project: Project): Promise<Asked[]> {
  const { labels, questions } = project.set;
  const byId = new Map(project.items.map((i) => [i.itemId, itemText(i)]));
  const titles = new Map(project.items.map((i) => [i.itemId, i.title]));
  const out: Asked[] = [];
  for (const q of questions) {
    const fact = labels.facts.find((f) => f.id === q.fact);
    if (!fact) throw new Error(`${labels.transcript}: question for unknown fact ${q.fact}`);
    const results = await searchResults(server, project.apiKey, q.question, SEARCH_TOP);
    const found = results.map((r) => r.itemId);
    for (const r of results) if (states(fact, byId.get(r.itemId) ?? '')) seen.answers.push(r.scores);
    seen.questions.push(results.map((r) => ({ ...r.scores, answers: states(fact, byId.get(r.itemId) ?? '') })));
    const lines = await packLines(server, project.apiKey, q.question);
    const stored = project.items.some((i) => states(fact, itemText(i)));
    const search = found.some((id) => states(fact, byId.get(id) ?? ''));
    // Why search missed: ranked just below the top 5, or not matched at all.
    const deeper = stored && !search ? await searchResults(server, project.apiKey, q.question, 50) : [];
    const at = deeper.findIndex((r) => states(fact, byId.get(r.itemId) ?? ''));
    out.push({
      session: labels.transcript.replace(/\.jsonl$/, ''),
      cohort: labels.cohort ?? 'before issue 25',
      fact,
      question: q.question,
      stored,
      search,
      pack: lines.some((l) => states(fact, l)),
      ...(stored && !search
        ? {
            rank: at < 0 ? null : at + 1,
            ranked: deeper.slice(0, Math.max(at + 1, SEARCH_TOP)).map((r) => ({
              title: titles.get(r.itemId) ?? r.itemId,
              answers: states(fact, byId.get(r.itemId) ?? ''),
              scores: r.scores,
            })),
          }
        : {}),
    });
  }
  return out;
}

/** Waits until the embedding sync has caught up with every project's items. */
const embedded = (databaseUrl: string) =>
  embeddingsCaughtUp(databaseUrl, { ms: 600_000, message: 'embedding did not catch up in time' });

const ratio = (a: number, b: number, digits = 2) => (b === 0 ? '—' : (a / b).toFixed(digits));

function report(title: string, asked: readonly Asked[]): void {
  console.log(`\n${title}`);
  console.log(
    'cohort'.padEnd(34) +
      'questions  stored  search@5  pack@1500  search/stored  pack/stored  (search, pack of stored)',
  );
  const cohorts = [...new Set(asked.map((a) => a.cohort))].sort();
  for (const [name, some] of [
    ...cohorts.map((c) => [c, asked.filter((a) => a.cohort === c)] as const),
    ['ALL', asked] as const,
  ]) {
    const n = some.length;
    const stored = some.filter((a) => a.stored).length;
    const s = some.filter((a) => a.search).length;
    const p = some.filter((a) => a.pack).length;
    const sOfStored = some.filter((a) => a.stored && a.search).length;
    const pOfStored = some.filter((a) => a.stored && a.pack).length;
    console.log(
      name.slice(0, 32).padEnd(34) +
        String(n).padStart(9) +
        ratio(stored, n).padStart(8) +
        ratio(s, n).padStart(10) +
        ratio(p, n).padStart(11) +
        // Three places: the goal (≥ 0.9) is on these, and two would round 0.898 up to it.
        ratio(s, stored, 3).padStart(15) +
        ratio(p, stored, 3).padStart(13) +
        `  (${ratio(sOfStored, stored)}, ${ratio(pOfStored, stored)})`,
    );
  }
}

function misses(asked: readonly Asked[]): void {
  console.log('\nStored facts a question did not find (search / pack):');
  for (const a of asked) {
    if (!a.stored || (a.search && a.pack)) continue;
    const rank = a.rank === undefined ? '' : a.rank === null ? ', search: not among 50' : `, search rank ${a.rank}`;
    const where = [a.search ? '' : 'search', a.pack ? '' : 'pack'].filter(Boolean).join('+') + rank;
    console.log(`  [${a.session.slice(0, 24)}] ${a.fact.id} (${where}): ${a.question}`);
  }
}

async function nonsense(
  server: BenchServer,
  projects: readonly Project[],
  set: (typeof NONSENSE)[number],
): Promise<void> {
  const { queries } = JSON.parse(readFileSync(set.file, 'utf8')) as { queries: string[] };
  let results = 0;
  let packed = 0;
  const offenders = new Set<string>();
  const examples: string[] = [];
  const mine: Result['scores'][] = [];
  for (const project of projects) {
    for (const q of queries) {
      const found = await searchResults(server, project.apiKey, q, 10);
      const titles = new Map(project.items.map((i) => [i.itemId, i.title]));
      for (const r of found) examples.push(`"${q}" → ${(titles.get(r.itemId) ?? r.itemId).slice(0, 100)}`);
      seen.nonsense.push(...found.map((r) => r.scores));
      mine.push(...found.map((r) => r.scores));
      seen.byQuery.push({ q, scores: found.map((r) => r.scores) });
      const lines = await packLines(server, project.apiKey, q);
      results += found.length;
      packed += lines.length;
      if (found.length > 0 || lines.length > 0) offenders.add(q);
    }
  }
  for (const e of examples.slice(0, 12)) console.log(`  ${e}`);
  const quantiles = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? fmt(sorted[Math.floor(p * (sorted.length - 1))]!, 3) : '—');
    return `p10 ${at(0.1)}, p50 ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)} (${sorted.length})`;
  };
  for (const source of ['fullText', 'vector'] as const) {
    const of = (list: Result['scores'][]) => list.flatMap((s) => (s[source] === null ? [] : [s[source]!]));
    console.log(
      `  ${source} scores: results answering a question ${quantiles(of(seen.answers))}; nonsense results ${quantiles(of(mine))}`,
    );
  }
  console.log(
    `\n${set.name}: ${queries.length} × ${projects.length} projects; ` +
      `${fmt(results)} search results and ${fmt(packed)} pack lines in all (goal: 0)` +
      (offenders.size ? `; found something: ${[...offenders].map((q) => `"${q}"`).join(', ')}` : ''),
  );
}

async function main(): Promise<void> {
  if (skippedWithoutTranscripts('bench:retrieval')) return;
  const sets = loadSets();
  const server = await startForRealSessions('retrieval', { HYGIENE_INTERVAL_MS: '0', EMBEDDING_POLL_MS: '500' });
  try {
    const projects: Project[] = [];
    for (const set of sets) {
      const name = set.labels.transcript.replace(/\.jsonl$/, '');
      const { projectId, apiKey, items } = await loadSession(server, set.labels.transcript, name);
      projects.push({ set, projectId, apiKey, items });
    }
    await embedded(server.databaseUrl);
    console.log(`bench:retrieval — local engine, local embedder; ${projects.length} real sessions, a project each`);
    const alone = (await Promise.all(projects.map((p) => ask(server, p)))).flat();
    report('Each session alone in its project:', alone);
    misses(alone);
    if (process.env.BENCH_RETRIEVAL_MISSES) {
      const missed = alone
        .filter((a) => a.ranked)
        .map(({ session, fact, question, rank, ranked }) => ({ session, fact: fact.id, question, rank, ranked }));
      writeFileSync(process.env.BENCH_RETRIEVAL_MISSES, JSON.stringify(missed, null, 2));
    }
    for (const set of NONSENSE) await nonsense(server, projects, set);
    if (process.env.BENCH_RETRIEVAL_SCORES) writeFileSync(process.env.BENCH_RETRIEVAL_SCORES, JSON.stringify(seen));

    if (MIX > 0) {
      const db = createDatabase({ url: server.databaseUrl, poolSize: 2 });
      try {
        for (const p of projects) await seedSearchCorpus(db, p.projectId, MIX);
      } finally {
        await db.destroy();
      }
      const started = performance.now();
      await embedded(server.databaseUrl);
      console.log(
        `\nEach project mixed with ${fmt(MIX)} items of bench:search's corpus (embedded in ${fmt((performance.now() - started) / 1000, 1)} s):`,
      );
      const mixed = (await Promise.all(projects.map((p) => ask(server, p)))).flat();
      report(`Mixed, ${fmt(MIX)} other items a project:`, mixed);
    }
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
