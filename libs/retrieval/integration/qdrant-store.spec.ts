import { randomBytes } from 'node:crypto';
import { loadConfig } from '@memex/config';
import { newId } from '@memex/domain';
import { QdrantVectorStore, normalize, ulidToUuid } from '@memex/retrieval';

const QDRANT_URL = process.env.QDRANT_URL;
if (!QDRANT_URL) {
  // Loud on purpose: a skipped adapter test must never pass for a tested one.
  console.warn('qdrant-store.spec: SKIPPED — no Qdrant server here; set QDRANT_URL=http://host:6333 to run it');
}

describe('ulidToUuid', () => {
  it('maps a ULID onto the UUID of the same 128 bits', () => {
    expect(ulidToUuid('00000000000000000000000000')).toBe('00000000-0000-0000-0000-000000000000');
    expect(ulidToUuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    expect(ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('01563e3a-b5d3-d676-4c61-efb99302bd5b');
  });
});

(QDRANT_URL ? describe : describe.skip)('QdrantVectorStore (needs QDRANT_URL)', () => {
  const collection = `memex_test_${randomBytes(4).toString('hex')}`;
  let store: QdrantVectorStore;
  const vec = (...v: number[]) => normalize(Float32Array.from(v));
  const [p1, p2] = [newId(), newId()];
  const [a, b, c] = [newId(), newId(), newId()];

  beforeAll(async () => {
    store = new QdrantVectorStore(loadConfig({ VECTOR_STORE: 'qdrant', QDRANT_URL, QDRANT_COLLECTION: collection }));
    await store.ensureReady(3);
    await store.ensureReady(3); // idempotent at every start
    await store.upsert(p1, [
      { itemId: a, vector: vec(1, 0, 0), status: 'active', type: 'Decision' },
      { itemId: b, vector: vec(0.9, 0.1, 0), status: 'active', type: 'BugFix' },
    ]);
    await store.upsert(p2, [{ itemId: c, vector: vec(1, 0, 0), status: 'active', type: 'Decision' }]);
  });

  afterAll(async () => {
    await fetch(`${QDRANT_URL}/collections/${collection}`, { method: 'DELETE' });
  });

  it('searches one project by cosine, filtered by status and type', async () => {
    const hits = await store.search(p1, vec(1, 0, 0), { limit: 5, statuses: ['active'] });
    expect(hits.map((h) => h.itemId)).toEqual([a, b]);
    const bugs = await store.search(p1, vec(1, 0, 0), { limit: 5, statuses: ['active'], types: ['BugFix'] });
    expect(bugs.map((h) => h.itemId)).toEqual([b]);
  });

  it('applies status changes to the payload, so filters follow them', async () => {
    await store.updatePayload(p1, [{ itemId: a, status: 'archived', type: 'Decision' }]);
    const live = await store.search(p1, vec(1, 0, 0), { limit: 5, statuses: ['active'] });
    expect(live.map((h) => h.itemId)).toEqual([b]);
  });

  it('refuses a collection of another size', async () => {
    await expect(store.ensureReady(4)).rejects.toThrow(/3-dimensional/);
  });
});
