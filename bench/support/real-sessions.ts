import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemView, RawEventInput } from '@memex/domain';
import { transcriptToEvents } from '@memex/transcript';
import type { SessionLabels } from '../quality/judge';
import { pollDatabase } from './poll-database';
import { startAllInOne, type BenchServer } from './server-process';

/**
 * Real Claude Code sessions, sent through the events API the way the hooks send them, each into
 * a project of its own, for the benches that measure what Memex keeps (bench:quality) and what
 * it finds (bench:retrieval).
 */

const ROOT = join(__dirname, '..', '..', '..');
export const REALDATA = process.env.MEMEX_REALDATA_DIR ?? join(ROOT, '..', 'shared', 'realdata');
export const TRANSCRIPT_DIRS = ['transcripts', 'transcripts-more'].map((d) => join(REALDATA, d));
/** The admin token the benches start the server with, to create their projects. */
const BENCH_ADMIN = 'bench-real-sessions-admin-token';
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_EVENTS = 200;

export type StoredItem = Pick<
  ItemView,
  'itemId' | 'type' | 'status' | 'title' | 'facts' | 'rationale' | 'files' | 'evidenceSpans'
>;

const transcriptPath = (file: string): string | undefined =>
  TRANSCRIPT_DIRS.map((d) => join(d, file)).find((p) => existsSync(p));

export async function api<T>(server: BenchServer, path: string, key: string, init: RequestInit = {}): Promise<T> {
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

/** Waits until enrichment has read every session of the project to its last event. */
function enriched(databaseUrl: string, projectId: string): Promise<number> {
  return pollDatabase<{ behind: number }>(
    databaseUrl,
    {
      query:
        'select count(*)::int as behind from sessions where project_id = $1 and enrichment_cursor < last_event_seq',
      values: [projectId],
      everyMs: 100,
      deadline: { ms: 120_000, message: 'enrichment did not catch up in time' },
    },
    (row) => row!.behind === 0,
  );
}

/** The all-in-one process the real sessions go into, taking BENCH_ADMIN to make their projects. */
export function startForRealSessions(label: string, env: Record<string, string> = {}): Promise<BenchServer> {
  return startAllInOne(label, { MEMEX_ADMIN_TOKEN: BENCH_ADMIN, LOG_LEVEL: 'warn', ...env });
}

export interface LoadedSession {
  projectId: string;
  apiKey: string;
  events: RawEventInput[];
  /** The project's live items once enrichment has read the whole session. */
  items: StoredItem[];
}

/** One transcript into a new project, completed, and enriched to its end. */
export async function loadSession(
  server: BenchServer,
  transcript: string,
  projectName: string,
): Promise<LoadedSession> {
  const name = transcript.replace(/\.jsonl$/, '');
  const events = transcriptToEvents(readFileSync(transcriptPath(transcript)!, 'utf8'));
  const { projectId, apiKey } = await api<{ projectId: string; apiKey: string }>(
    server,
    '/api/v2/projects',
    BENCH_ADMIN,
    { method: 'POST', body: JSON.stringify({ name: projectName.slice(0, 200) }) },
  );
  const sessionId = name.slice(0, 100).replace(/[^A-Za-z0-9._-]/g, '-');
  for (const batch of batches(events)) {
    await api(server, '/api/v2/events', apiKey, { method: 'POST', body: JSON.stringify({ sessionId, events: batch }) });
  }
  // Sent whole, as `memex import` sends a transcript: the session has ended.
  await api(server, `/api/v2/sessions/${sessionId}/complete`, apiKey, {
    method: 'POST',
    body: JSON.stringify({ ended: true }),
  });
  await enriched(server.databaseUrl, projectId);
  return { projectId, apiKey, events, items: await liveItems(server, apiKey) };
}

/** The project's live items (superseded and archived ones are out of the memory a session loads). */
async function liveItems(server: BenchServer, key: string): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await api<{ items: StoredItem[]; nextCursor: string | null }>(
      server,
      `/api/v2/memory-items?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      key,
    );
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items.filter((i) => i.status !== 'superseded' && i.status !== 'archived');
}

/** True, after saying so, when no transcripts are beside the clone: the bench then has nothing to measure. */
export function skippedWithoutTranscripts(bench: string): boolean {
  if (TRANSCRIPT_DIRS.some((d) => existsSync(d))) return false;
  console.log(`${bench} SKIPPED: no transcripts under ${REALDATA}`);
  console.log("  (clone this repository beside the project's shared/ folder, or set MEMEX_REALDATA_DIR)");
  return true;
}

const LABELS = join(ROOT, 'bench', 'quality', 'labels');

/**
 * The team's labels (bench/quality/labels) of the sessions whose transcripts this machine
 * has: what bench:quality and bench:retrieval both measure.
 */
export function labelledSessions(): SessionLabels[] {
  return readdirSync(LABELS)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(LABELS, f), 'utf8')) as SessionLabels)
    .filter((l) => transcriptPath(l.transcript) !== undefined);
}
