import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { ItemView, RawEventInput } from '@memex/domain';
import { transcriptToEvents } from '@memex/transcript';
import { startAllInOne, type BenchServer } from '../support/server-process';
import { brainLines, itemText, loadLabels, looksLikeJunk, states, type SessionLabels } from './judge';

/**
 * What Memex remembers of real Claude Code sessions. Each labelled transcript in
 * ../shared/realdata/transcripts is sent through the events API as the hooks send it, into a
 * project of its own, on the all-in-one process with whichever engine the environment
 * configures; once enrichment has caught up, the stored items and the brain are read back
 * through the API and compared with the team's labels (bench/quality/labels).
 */

const ROOT = join(__dirname, '..', '..', '..');
const LABELS = join(ROOT, 'bench', 'quality', 'labels');
const TRANSCRIPTS = process.env.MEMEX_REALDATA_DIR ?? join(ROOT, '..', 'shared', 'realdata', 'transcripts');
const ADMIN = 'bench-quality-admin-token';
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_EVENTS = 200;
const BUDGETS = [2000, 6000] as const;
/** Where to write each session's items and brains for reading (optional). */
const DUMP = process.env.BENCH_QUALITY_DUMP;

type Item = Pick<ItemView, 'itemId' | 'type' | 'status' | 'title' | 'facts' | 'rationale' | 'files' | 'evidenceSpans'>;

interface Result {
  name: string;
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

async function api<T>(server: BenchServer, path: string, key: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (res.headers.get('content-type')?.includes('json') ? res.json() : res.text()) as Promise<T>;
}

function batches(events: RawEventInput[]): RawEventInput[][] {
  const out: RawEventInput[][] = [[]];
  let bytes = 0;
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event));
    const last = out[out.length - 1]!;
    if (last.length > 0 && (last.length >= BATCH_EVENTS || bytes + size > BATCH_BYTES)) {
      out.push([]);
      bytes = 0;
    }
    out[out.length - 1]!.push(event);
    bytes += size;
  }
  return out;
}

async function enriched(databaseUrl: string, projectId: string, timeoutMs = 120_000): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await db.query<{ behind: number }>(
        'select count(*)::int as behind from sessions where project_id = $1 and enrichment_cursor < last_event_seq',
        [projectId],
      );
      if (rows[0]!.behind === 0) return;
      if (Date.now() > deadline) throw new Error('enrichment did not catch up in time');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await db.end();
  }
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

async function allItems(server: BenchServer, key: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await api<{ items: Item[]; nextCursor: string | null }>(
      server,
      `/api/v2/memory-items?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      key,
    );
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  // Superseded and archived items are out of the memory a session loads.
  return items.filter((i) => i.status !== 'superseded' && i.status !== 'archived');
}

async function measure(server: BenchServer, labels: SessionLabels): Promise<Result> {
  const name = labels.transcript.replace(/\.jsonl$/, '');
  const events = transcriptToEvents(readFileSync(join(TRANSCRIPTS, labels.transcript), 'utf8'));
  const { projectId, apiKey } = await api<{ projectId: string; apiKey: string }>(server, '/api/v2/projects', ADMIN, {
    method: 'POST',
    body: JSON.stringify({ name: name.slice(0, 200) }),
  });
  const sessionId = name.slice(0, 100).replace(/[^A-Za-z0-9._-]/g, '-');
  for (const batch of batches(events)) {
    await api(server, '/api/v2/events', apiKey, { method: 'POST', body: JSON.stringify({ sessionId, events: batch }) });
  }
  await api(server, `/api/v2/sessions/${sessionId}/complete`, apiKey, { method: 'POST', body: '{}' });
  await enriched(server.databaseUrl, projectId);

  const items = await allItems(server, apiKey);
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
  return {
    name,
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

function print(results: Result[], engine: string): void {
  console.log(`bench:quality — engine: ${engine}; ${results.length} real Claude Code sessions`);
  console.log('session'.padEnd(58) + 'facts  recall  brain@2k  brain@6k  items  precision  unverified  junk');
  const row = (r: Omit<Result, 'unmatched' | 'missed' | 'junk'> & { junk: number }) =>
    console.log(
      r.name.slice(0, 56).padEnd(58) +
        String(r.facts).padStart(5) +
        ratio(r.found, r.facts).padStart(8) +
        ratio(r.inBrain[2000], r.facts).padStart(10) +
        ratio(r.inBrain[6000], r.facts).padStart(10) +
        String(r.items).padStart(7) +
        ratio(r.matching, r.items).padStart(11) +
        String(r.unverified).padStart(12) +
        String(r.junk).padStart(6),
    );
  for (const r of results) row({ ...r, junk: r.junk.length });
  const sum = (f: (r: Result) => number) => results.reduce((s, r) => s + f(r), 0);
  row({
    name: 'ALL (micro: every fact and every item counted once)',
    facts: sum((r) => r.facts),
    found: sum((r) => r.found),
    inBrain: { 2000: sum((r) => r.inBrain[2000]), 6000: sum((r) => r.inBrain[6000]) },
    items: sum((r) => r.items),
    matching: sum((r) => r.matching),
    unverified: sum((r) => r.unverified),
    junk: sum((r) => r.junk.length),
  });
  console.log('\nItems that match no labelled fact:');
  for (const r of results) for (const t of r.unmatched) console.log(`  [${r.name.slice(0, 24)}] ${t.slice(0, 150)}`);
  console.log('\nLabelled facts no item states:');
  for (const r of results) if (r.missed.length) console.log(`  [${r.name.slice(0, 24)}] ${r.missed.join(', ')}`);
  const junk = results.flatMap((r) => r.junk);
  if (junk.length) console.log(`\nJunk titles:\n${junk.map((t) => `  ${t}`).join('\n')}`);
}

async function main(): Promise<void> {
  if (!existsSync(TRANSCRIPTS)) {
    console.log(`bench:quality SKIPPED: no transcripts at ${TRANSCRIPTS}`);
    console.log("  (clone this repository beside the project's shared/ folder, or set MEMEX_REALDATA_DIR)");
    return;
  }
  if (DUMP) mkdirSync(DUMP, { recursive: true });
  const labels = loadLabels(LABELS).filter((l) => existsSync(join(TRANSCRIPTS, l.transcript)));
  const server = await startAllInOne('quality', { MEMEX_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' });
  try {
    const results: Result[] = [];
    for (const l of labels) results.push(await measure(server, l));
    print(results, await enginesThatRan(server.databaseUrl));
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
