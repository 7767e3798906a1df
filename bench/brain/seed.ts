import { sql, type Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { ITEM_TYPES, newId, type ItemStatus } from '@memex/domain';

const DAY = 86_400_000;
const WORDS =
  'retry webhook cart discount auth token session queue cache schema migration index brain search payment invoice'.split(
    ' ',
  );

/** A project's worth of varied items: every type, ages up to a year, shared dedup topics. */
export async function seed(db: Kysely<DB>, projectId: string, count: number): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < count; start += 2000) {
    const rows = Array.from({ length: Math.min(2000, count - start) }, (_, k) => {
      const i = start + k;
      const type = ITEM_TYPES[i % ITEM_TYPES.length]!;
      const topic = WORDS[i % WORDS.length]!;
      const status: ItemStatus = i % 10 === 0 ? 'archived' : i % 7 === 0 ? 'stale' : 'active';
      return {
        id: newId(),
        project_id: projectId,
        type,
        title: `${type} about ${topic} number ${i}`,
        facts: `${'Details of the change to the ' + topic + ' module, what it does and why. '.repeat(4)}`,
        rationale: i % 3 === 0 ? `Because ${topic} needed it.` : null,
        files: [`src/${topic}/file${i % 17}.ts`],
        schema_key: `root/${topic}`,
        confidence: 0.3 + ((i * 7) % 70) / 100,
        status,
        dedup_hint: `${type.toLowerCase()}:${topic}:key-${i % 500}`,
        tags: [topic],
        importance: (i % 5) + 1,
        session_id: 'bench',
        updated_at: new Date(now - ((i * 37) % 365) * DAY),
      };
    });
    await db.insertInto('memory_items').values(rows).execute();
  }
  await sql`analyze memory_items`.execute(db);
}
