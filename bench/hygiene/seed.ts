import { sql, type Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { ITEM_TYPES, newId, type ItemStatus } from '@memex/domain';

const DAY = 86_400_000;
const AREAS =
  'auth billing cart checkout search index queue worker cache brain ingest session api web mobile admin reports export import email'.split(
    ' ',
  );
const VERBS = 'add fix refactor document migrate remove rename split cache retry validate'.split(' ');
const NOUNS =
  'token handler endpoint schema job webhook page component hook query migration test config client parser'.split(' ');

/** A deterministic pseudo-random sequence, so every run seeds the same corpus. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/**
 * A project's worth of items as months of sessions leave them: every type and status, ages
 * up to 400 days, about 300 `category:topic` pairs, a few near-duplicates and conflicts,
 * low-confidence items, Decisions without rationale, superseded items old and new.
 */
export async function seedHygiene(db: Kysely<DB>, projectId: string, count: number): Promise<void> {
  const rnd = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const now = Date.now();
  let previous: { title: string; facts: string; type: string; hint: string } | undefined;
  for (let start = 0; start < count; start += 2000) {
    const rows = Array.from({ length: Math.min(2000, count - start) }, (_, k) => {
      const i = start + k;
      const type = pick(ITEM_TYPES);
      const area = pick(AREAS);
      const noun = pick(NOUNS);
      const topic = `${area}-${Math.floor(rnd() * 15)}`;
      let title = `${pick(VERBS)} ${area} ${noun} ${i}`;
      let facts = `The ${area} ${noun} now ${pick(VERBS)}s before it ${pick(VERBS)}s the ${pick(NOUNS)}; item ${i} of the ${topic} work, see src/${area}/${noun}.ts.`;
      let hint = `${type.toLowerCase()}:${topic}:${noun}-${i}`;
      // One in 40 repeats the previous item's words (a near-duplicate); one in 200 its hint (a conflict).
      if (previous && i % 40 === 0) {
        title = previous.title;
        facts = `${previous.facts} Again.`;
      }
      if (previous && i % 200 === 100) hint = previous.hint;
      const updatedDaysAgo = Math.floor(rnd() * 400);
      const status: ItemStatus =
        rnd() < 0.05 ? 'superseded' : rnd() < 0.1 ? 'stale' : rnd() < 0.03 ? 'review' : 'active';
      const row = {
        id: newId(),
        project_id: projectId,
        type: previous && i % 40 === 0 ? previous.type : type,
        title,
        facts,
        rationale: type === 'Decision' && rnd() < 0.2 ? null : `Because the ${area} ${noun} needed it.`,
        files: [`src/${area}/${noun}.ts`],
        schema_key: `root/${area}`,
        confidence: Math.round((0.3 + rnd() * 0.7) * 100) / 100,
        status,
        evidence_refs: [`evt-${i}`],
        evidence_spans: JSON.stringify([{ eventId: `evt-${i}`, quote: title }]),
        dedup_hint: hint,
        tags: [area],
        importance: 1 + Math.floor(rnd() * 5),
        session_id: 'bench',
        created_at: new Date(now - (updatedDaysAgo + Math.floor(rnd() * 30)) * DAY),
        updated_at: new Date(now - updatedDaysAgo * DAY),
        last_reinforced_at: rnd() < 0.3 ? new Date(now - Math.floor(rnd() * 60) * DAY) : null,
        resolved_at:
          (type === 'BugFix' || type === 'Todo') && rnd() < 0.5 ? new Date(now - updatedDaysAgo * DAY) : null,
        status_changed_at: new Date(now - Math.floor(rnd() * updatedDaysAgo) * DAY),
      };
      previous = { title, facts, type: row.type, hint };
      return row;
    });
    await db.insertInto('memory_items').values(rows).execute();
  }
  await sql`analyze memory_items`.execute(db);
}
