import { sql, type Kysely } from 'kysely';
import { EntityRepository, ProjectRepository, type DB } from '@memex/db';
import { newId } from '@memex/domain';
import { itemEntities } from '@memex/entities';
import { entityWindow } from '@memex/feature-enrichment';
import { transcriptToEvents } from '@memex/transcript';
import { bugFixRow, camel, random, sourceEvent, transcriptLines } from './pack-corpus';

const WORDS = (
  'invoice payment retry scheduler webhook sender cache warmer token refresh session cookie queue worker ' +
  'search index budget window cursor reconciler migration snapshot export report mailer template upload ' +
  'storage bucket thumbnail avatar profile billing coupon discount cart checkout shipping address tracker'
).split(' ');
const ERRORS = ['TypeError', 'RangeError', 'ReferenceError'];
/** Fix cycles (prompt, read, failing run, edit, passing run, answer) in each session. */
const CYCLES = 10;
/** Sessions written per batch of raw_events rows. */
const BATCH = 20;

/**
 * A session of CYCLES fix cycles in Claude Code's transcript format. Files, functions and errors
 * come from pools shared by every session, so the store grows as a long-lived project's does:
 * the same files and errors named again and again (mentions, occurrences, relation weights),
 * and some new ones each time.
 */
function growthSession(s: number, pick: <T>(list: readonly T[]) => T, startsAt: number) {
  const { cwd, entry, use, result } = transcriptLines(`g${s}`, (k) => new Date(startsAt + k * 1000).toISOString());
  const lines: unknown[] = [];
  const fixes: Array<{ title: string; facts: string; files: string[] }> = [];
  for (let c = 0; c < CYCLES; c += 1) {
    const file = `src/${pick(WORDS)}/${camel([pick(WORDS), pick(WORDS)])}.ts`;
    const symbol = camel([pick(WORDS), pick(WORDS), pick(WORDS)]);
    const field = camel([pick(WORDS), pick(WORDS)]);
    const id = `${s}-${c}`;
    const error = `${pick(ERRORS)}: ${field}.map is not a function`;
    fixes.push({
      title: `${symbol} guarded against a missing ${field}`,
      facts: `${error} in ${file}; the list is guarded now and the tests pass.`,
      files: [file],
    });
    lines.push(
      entry('user', `The ${pick(WORDS)} ${pick(WORDS)} fails again in ${file}; please fix it`),
      use(`r${id}`, 'Read', { file_path: `${cwd}/${file}` }),
      result(`r${id}`, '1→export function old() {}'),
      use(`t${id}`, 'Bash', { command: 'npm test' }),
      result(`t${id}`, `Exit code 1\n${error}\n    at ${symbol} (${file}:12:5)`, true),
      use(`e${id}`, 'Edit', {
        file_path: `${cwd}/${file}`,
        old_string: 'export function old() {}',
        new_string: `export function ${symbol}(${field}) {\n  return (${field} ?? []).map(String);\n}`,
      }),
      result(`e${id}`, `The file ${cwd}/${file} has been updated.`),
      use(`p${id}`, 'Bash', { command: 'npm test' }),
      result(`p${id}`, 'Tests: 14 passed, 14 total'),
      entry('assistant', [{ type: 'text', text: `Fixed ${symbol}: the list is guarded now and the tests pass.` }]),
    );
  }
  return { events: transcriptToEvents(lines.map((l) => JSON.stringify(l)).join('\n')), fixes };
}

/**
 * Grows the database by at least `target` events over three projects (the bench's and two
 * more, as in the soak that found the slowdown), as enrichment would leave them: each
 * session's events in raw_events, its entities, relations and error occurrences recorded
 * from them (entityWindow, recordWindow), an item for each fix linked to what it names, and
 * the session marked enriched so the worker does not read it again. Written straight through
 * the repositories and SQL in batches: the HTTP API and the engine would take the better part
 * of an hour for 100,000 events on two cores. Returns the number of events written.
 */
export async function growPackCorpus(db: Kysely<DB>, projectId: string, target: number): Promise<number> {
  const rnd = random(23);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const projects = [projectId];
  for (const name of ['growth-a', 'growth-b'])
    projects.push((await new ProjectRepository(db).createWithKey(name)).projectId);
  const store = new EntityRepository(db);
  // After the corpus's sessions, so the project's latest session is a grown one.
  const startsAt = Date.UTC(2026, 2, 1);
  let written = 0;
  for (let s = 0; written < target; s += BATCH) {
    const batch = Array.from({ length: BATCH }, (_, b) => {
      const n = s + b;
      const { events, fixes } = growthSession(n, pick, startsAt + n * 600_000);
      const items = fixes.map((f) => ({ itemId: newId(), rationale: null, ...f }));
      return { n, projectId: projects[n % projects.length]!, sessionId: newId(), events, items };
    });
    const last = (e: (typeof batch)[number]) => new Date(e.events[e.events.length - 1]!.timestamp);
    await db
      .insertInto('sessions')
      .values(
        batch.map((b) => ({
          id: b.sessionId,
          project_id: b.projectId,
          external_id: `growth-${b.n}`,
          last_event_at: last(b),
        })),
      )
      .execute();
    await db
      .insertInto('raw_events')
      .values(
        batch.flatMap((b) =>
          b.events.map((e) => ({
            project_id: b.projectId,
            session_id: b.sessionId,
            event_id: e.eventId,
            type: e.type,
            occurred_at: new Date(e.timestamp),
            content: e.content,
            metadata: e.metadata ? JSON.stringify(e.metadata) : null,
          })),
        ),
      )
      .execute();
    for (const b of batch) {
      await store.recordWindow(b.projectId, b.sessionId, entityWindow(b.events.map(sourceEvent), [], last(b)));
      written += b.events.length;
    }
    await db
      .insertInto('memory_items')
      .values(batch.flatMap((b) => b.items.map((item) => bugFixRow(b.projectId, b.sessionId, item, last(b)))))
      .execute();
    for (const b of batch)
      await store.linkItems(
        b.projectId,
        b.items.map((i) => ({ itemId: i.itemId, entities: itemEntities(i) })),
        last(b),
      );
    // Enriched already: the reconciler must not queue these sessions for the worker.
    await sql`update sessions set enrichment_cursor = last_event_seq, completed_at = last_event_at
               where id = any(${batch.map((b) => b.sessionId)}::text[])`.execute(db);
  }
  await db
    .updateTable('projects')
    .set((eb) => ({ memory_revision: eb('memory_revision', '+', 1) }))
    .where('id', 'in', projects)
    .execute();
  return written;
}
