import { sql, type Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { ITEM_TYPES, newId } from '@memex/domain';

const WORDS = (
  'invoice payment retry scheduler webhook sender cache warmer token refresh session cookie queue worker ' +
  'search index brain layer budget enrichment window cursor reconciler migration lock advisory snapshot ' +
  'export import report mailer template upload storage bucket thumbnail resize avatar profile billing ' +
  'coupon discount cart checkout shipping address geocoder tracker analytics metric gauge histogram ' +
  'logger redactor parser tokenizer embedder ranker fusion snippet highlighter router guard filter pipe'
).split(' ');
const VERBS = 'drops duplicates stalls leaks retries times out skips reorders truncates double-counts'.split(' ');
const PLACES = 'on startup|under load|after a deploy|at midnight UTC|on the second try|behind the proxy|in CI'.split(
  '|',
);

/** A deterministic pseudo-random sequence: every run builds the same corpus and the same labels. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

export interface LabelledQuery {
  query: string;
  /**
   * Which signal the query leans on, by construction: its words, an identifier's parts, some
   * of each, or a symptom (words the target shares with many distractors, where both sources
   * see part of the answer and neither has it alone).
   */
  kind: (typeof QUERY_KINDS)[number];
  /** The one item the query is about. */
  relevant: string;
}

export const QUERY_KINDS = ['words', 'identifier', 'mixed', 'symptom'] as const;
/** Targets of each kind of query. */
export const PER_KIND = 100;

const camel = (parts: string[]) => parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join('');

/**
 * `count` items of one project, 400 of them targets of a labelled query. The labels are fixed
 * when the corpus is built, before any search runs: each target has a camelCase identifier of
 * three words and a symptom sentence; its query names either the symptom's words with the
 * case number (full text's strength), the identifier's parts (only a sub-word matcher sees
 * them), some of each, or the symptom alone (two words and the verb, with no case number:
 * distractors share them). Filler items reuse the same vocabulary in other combinations.
 */
export async function seedSearchCorpus(db: Kysely<DB>, projectId: string, count: number): Promise<LabelledQuery[]> {
  const rnd = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const three = () => {
    const parts = new Set<string>();
    while (parts.size < 3) parts.add(pick(WORDS));
    return [...parts];
  };
  const queries: LabelledQuery[] = [];
  const targets = QUERY_KINDS.length * PER_KIND;
  for (let start = 0; start < count; start += 2000) {
    const rows = Array.from({ length: Math.min(2000, count - start) }, (_, k) => {
      const i = start + k;
      const id = newId();
      const parts = three();
      const identifier = camel(parts);
      const [a, b] = [pick(WORDS), pick(WORDS)];
      const verb = pick(VERBS);
      const place = pick(PLACES);
      const serial = `case${i}`;
      const title = i < targets ? `${identifier} ${verb} ${place}` : `${pick(WORDS)} ${pick(WORDS)} ${verb}`;
      const facts =
        i < targets
          ? `The ${identifier}() helper in src/${parts[0]}/${identifier}.ts ${verb} ${place} when the ${a} ${b} ` +
            `is ${serial}; fixed by guarding the ${a} path.`
          : `The ${pick(WORDS)} ${pick(WORDS)} ${pick(VERBS)} ${pick(PLACES)} near the ${pick(WORDS)} ` +
            `${pick(WORDS)}; see src/${pick(WORDS)}/${camel([pick(WORDS), pick(WORDS)])}.ts.`;
      if (i < targets) {
        const kind = QUERY_KINDS[i % QUERY_KINDS.length]!;
        const query = {
          words: `${a} ${b} ${serial}`,
          identifier: `${parts.join(' ')} helper`,
          mixed: `${parts[0]} ${parts[1]} ${serial}`,
          symptom: `${a} ${b} ${verb}`,
        }[kind];
        queries.push({ query, kind, relevant: id });
      }
      return {
        id,
        project_id: projectId,
        type: ITEM_TYPES[i % 6]!,
        title,
        facts,
        schema_key: 'root',
        confidence: 0.8,
        status: 'active' as const,
        session_id: 'bench',
        importance: 3,
        updated_at: new Date(),
      };
    });
    await db.insertInto('memory_items').values(rows).execute();
  }
  // The embedding worker catches up with projects whose revision moved.
  await db
    .updateTable('projects')
    .set((eb) => ({ memory_revision: eb('memory_revision', '+', 1) }))
    .where('id', '=', projectId)
    .execute();
  await sql`analyze memory_items`.execute(db);
  return queries;
}
