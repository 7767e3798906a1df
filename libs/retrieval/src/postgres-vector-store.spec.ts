import type { EmbeddingRepository } from '@memex/db';
import { ITEM_STATUSES, ITEM_TYPES } from '@memex/domain';
import { fake } from '../../../test/support/fakes';
import { PostgresVectorStore } from './postgres-vector-store';

type StoredVector = Awaited<ReturnType<EmbeddingRepository['vectorsSince']>>[number];

/** A unit vector along `axis` of 4, so each row's score with the query is exact. */
const along = (axis: number, weight: number) => {
  const v = new Float32Array(4);
  v[axis] = weight;
  return v;
};

describe('PostgresVectorStore', () => {
  it('filters by status and type past its first thousand rows, and follows a later status', async () => {
    // 3,000 rows: the per-row codes grow twice past their first 1,024.
    const rows: StoredVector[] = Array.from({ length: 3000 }, (_, i) => ({
      itemId: `item-${i}`,
      status: ITEM_STATUSES[i % ITEM_STATUSES.length]!,
      type: ITEM_TYPES[i % ITEM_TYPES.length]!,
      vector: along(0, 1 - i / 10_000),
      generation: i + 1,
    }));
    let fresh = rows;
    const embeddings = fake<EmbeddingRepository>({
      vectorsSince: (_projectId: string, generation: number) =>
        Promise.resolve(fresh.filter((r) => r.generation > generation)),
    });
    const store = new PostgresVectorStore(embeddings, 'local/4');
    await store.ensureReady(4);
    const query = along(0, 1);

    const archived = await store.search('p', query, { limit: 3, statuses: ['archived'] });
    expect(archived.map((h) => h.itemId)).toEqual(['item-4', 'item-9', 'item-14']);

    const typed = await store.search('p', query, { limit: 400, statuses: ['active'], types: [ITEM_TYPES[1]!] });
    const expected = rows.filter((r) => r.status === 'active' && r.type === ITEM_TYPES[1]).map((r) => r.itemId);
    expect(typed.map((h) => h.itemId)).toEqual(expected.slice(0, 400));
    expect(typed.at(-1)!.itemId).toMatch(/^item-(1\d{3}|2\d{3})$/);

    // A superseded row is archived now: a later generation moves it.
    fresh = [{ ...rows[2998]!, status: 'archived', generation: 3001 }];
    const after = await store.search('p', along(0, 1), { limit: 1000, statuses: ['archived'] });
    expect(after.map((h) => h.itemId)).toContain('item-2998');
    expect(after).toHaveLength(601);
  });
});
