import { sql, type Kysely } from 'kysely';
import { EntityRepository, type DB } from '@memex/db';
import { newId, type RawEventInput } from '@memex/domain';
import { itemEntities, type SourceEvent } from '@memex/entities';
import { entityWindow } from '@memex/feature-enrichment';
import { transcriptToEvents } from '@memex/transcript';
import { seedSearchCorpus } from './corpus';

const WORDS = (
  'invoice payment retry scheduler webhook sender cache warmer token refresh session cookie queue worker ' +
  'search index budget window cursor reconciler migration snapshot export report mailer template upload ' +
  'storage bucket thumbnail avatar profile billing coupon discount cart checkout shipping address tracker'
).split(' ');
const VERBS = 'drops stalls leaks retries skips reorders truncates'.split(' ');
const PLACES = 'on startup|under load|after a deploy|at midnight|on the second try|behind the proxy'.split('|');
const ERRORS = ['TypeError', 'RangeError', 'ReferenceError'];

/** Sessions the labelled queries are about: one of each kind of query per session. */
export const PACK_SESSIONS = 100;
export const PACK_QUERY_KINDS = ['file', 'symbol', 'error'] as const;

export interface PackQuery {
  query: string;
  kind: (typeof PACK_QUERY_KINDS)[number];
  /** Sources a pack may show for it: the session's item, or (an error) its pattern. */
  relevant: string[];
}

/** A seeded generator, so every run builds the same corpus. */
export function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

export const camel = (parts: string[]) =>
  parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join('');

/**
 * Lines of a Claude Code transcript for one session, numbered as they are made: an entry, a
 * tool call and its result. `timestampOf(k)` dates the k-th line.
 */
export function transcriptLines(idPrefix: string, timestampOf: (k: number) => string) {
  const cwd = '/home/dev/shop';
  let k = 0;
  const entry = (type: 'user' | 'assistant', content: unknown) => ({
    type,
    uuid: `${idPrefix}-${(k += 1)}`,
    timestamp: timestampOf(k),
    cwd,
    message: { role: type, content },
  });
  const use = (id: string, name: string, input: Record<string, unknown>) =>
    entry('assistant', [{ type: 'tool_use', id, name, input }]);
  const result = (id: string, content: string, isError = false) =>
    entry('user', [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }]);
  return { cwd, entry, use, result };
}

/**
 * A session in Claude Code's transcript format (what the hooks upload): a prompt, a read, a
 * failing test run, edits of two files (the first declaring a function), a passing run. The
 * events come out of the transcript reader, as ingest stores them.
 */
function session(
  s: number,
  parts: { file: string; spec: string; symbol: string; field: string; error: string; prompt: string },
) {
  const { cwd, entry, use, result } = transcriptLines(`s${s}`, (k) =>
    new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + s * 3_600_000 + k * 1000).toISOString(),
  );
  const failure = `Exit code 1\n${parts.error}\n    at ${parts.symbol} (${parts.file}:${12 + (s % 40)}:5)`;
  const lines = [
    entry('user', parts.prompt),
    use(`r${s}`, 'Read', { file_path: `${cwd}/${parts.file}` }),
    result(`r${s}`, '1→export function old() {}'),
    use(`t${s}`, 'Bash', { command: 'npm test' }),
    result(`t${s}`, failure, true),
    use(`e${s}`, 'Edit', {
      file_path: `${cwd}/${parts.file}`,
      old_string: 'export function old() {}',
      new_string: `export function ${parts.symbol}(${parts.field}) {\n  return (${parts.field} ?? []).map(String);\n}`,
    }),
    result(`e${s}`, `The file ${cwd}/${parts.file} has been updated.`),
    use(`f${s}`, 'Edit', {
      file_path: `${cwd}/${parts.spec}`,
      old_string: 'x',
      new_string: `it('copes with none', () => {});`,
    }),
    result(`f${s}`, `The file ${cwd}/${parts.spec} has been updated.`),
    use(`p${s}`, 'Bash', { command: 'npm test' }),
    result(`p${s}`, 'Tests: 14 passed, 14 total'),
    entry('assistant', [{ type: 'text', text: 'Fixed: the list is guarded now and the tests pass.' }]),
  ];
  return transcriptToEvents(lines.map((l) => JSON.stringify(l)).join('\n')).map(sourceEvent);
}

/** An event as the entity store reads it (entityWindow). */
export function sourceEvent(e: RawEventInput): SourceEvent {
  return {
    eventId: e.eventId,
    type: e.type,
    occurredAt: Date.parse(e.timestamp),
    content: e.content,
    metadata: e.metadata ?? null,
  };
}

/** A fix session's item as its memory_items row: an active BugFix, as enrichment would leave it. */
export function bugFixRow(
  projectId: string,
  sessionId: string,
  item: { itemId: string; title: string; facts: string; files: string[] },
  updatedAt: Date,
) {
  return {
    id: item.itemId,
    project_id: projectId,
    type: 'BugFix',
    title: item.title,
    facts: item.facts,
    files: item.files,
    schema_key: 'root',
    confidence: 0.8,
    status: 'active' as const,
    session_id: sessionId,
    importance: 3,
    updated_at: updatedAt,
  };
}

/**
 * `count` items of one project: PACK_SESSIONS sessions read into the entity store exactly as
 * the enrichment worker reads them (windowEntities, then the items linked with itemEntities),
 * each with the item it produced, and filler items (bench/search/corpus.ts) linked to the files
 * they name. Each session's item names its files but neither its function nor its error, as
 * an item about a fix often does; the queries name a file by its base name, the function, or
 * the error. Labels are fixed when the corpus is built.
 */
export async function seedPackCorpus(db: Kysely<DB>, projectId: string, count: number): Promise<PackQuery[]> {
  await seedSearchCorpus(db, projectId, count - PACK_SESSIONS);
  const rnd = random(11);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const store = new EntityRepository(db);
  const queries: PackQuery[] = [];
  const items: Array<{ itemId: string; title: string; facts: string; rationale: string | null; files: string[] }> = [];
  for (let s = 0; s < PACK_SESSIONS; s += 1) {
    const dir = pick(WORDS);
    const file = `src/${dir}/${camel([pick(WORDS), pick(WORDS)])}${s}.ts`;
    const spec = file.replace(/\.ts$/, '.spec.ts');
    const symbol = camel([pick(WORDS), pick(WORDS), pick(WORDS)]) + s;
    const field = camel([pick(WORDS), pick(WORDS)]) + s;
    const error = `${pick(ERRORS)}: ${field}.map is not a function`;
    const [a, b, verb, place] = [pick(WORDS), pick(WORDS), pick(VERBS), pick(PLACES)];
    const events = session(s, {
      file,
      spec,
      symbol,
      field,
      error,
      prompt: `The ${a} ${b} ${verb} ${place}; please fix it`,
    });
    const sessionId = `bench-session-${s}`;
    const window = entityWindow(events, [], new Date(events[events.length - 1]!.occurredAt));
    await store.recordWindow(projectId, sessionId, window);
    const itemId = newId();
    const item = {
      itemId,
      title: `${a} ${b} ${verb} ${place}`,
      facts: `Guarded the ${a} path in the ${dir} module when the list is empty; the tests pass again.`,
      rationale: null,
      files: [file, spec],
    };
    items.push(item);
    await db
      .insertInto('memory_items')
      .values(bugFixRow(projectId, sessionId, item, new Date()))
      .execute();
    const signature = window.errors[0]!.signature;
    queries.push(
      { kind: 'file', query: `what changed in ${file.slice(file.lastIndexOf('/') + 1)}?`, relevant: [itemId] },
      { kind: 'symbol', query: `how does ${symbol} work?`, relevant: [itemId] },
      { kind: 'error', query: `fix ${error}`, relevant: [itemId, signature] },
    );
  }
  await store.linkItems(
    projectId,
    items.map((i) => ({ itemId: i.itemId, entities: itemEntities(i) })),
    new Date(),
  );
  // Filler items name files too: the store holds their links, as it would after enrichment.
  for (let offset = 0; ; offset += 2000) {
    const rows = await db
      .selectFrom('memory_items')
      .select(['id as itemId', 'title', 'facts', 'rationale', 'files'])
      .where('project_id', '=', projectId)
      .where('session_id', '=', 'bench')
      .orderBy('id')
      .offset(offset)
      .limit(2000)
      .execute();
    if (rows.length === 0) break;
    await store.linkItems(
      projectId,
      rows.map((r) => ({ itemId: r.itemId, entities: itemEntities(r) })),
      new Date(),
    );
  }
  await db
    .updateTable('projects')
    .set((eb) => ({ memory_revision: eb('memory_revision', '+', 1) }))
    .where('id', '=', projectId)
    .execute();
  await sql`analyze`.execute(db);
  return queries;
}
