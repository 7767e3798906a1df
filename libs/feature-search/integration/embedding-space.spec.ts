import { ItemsModule } from '@memex/feature-items';
import { SearchModule } from '@memex/feature-search';
import { EmbeddingSyncService } from '@memex/feature-enrichment';
import { EmbeddingRepository, EntityRepository, KYSELY, MemoryItemAdminRepository, type DB } from '@memex/db';
import { sql, type Kysely } from 'kysely';
import {
  EMBEDDER,
  VECTOR_STORE,
  embeddingSpace,
  type Embedder,
  type VectorPoint,
  type VectorStore,
} from '@memex/retrieval';
import { request } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';

// No embedding worker: the syncs below are run by hand, one store at a time.
const ctx = useTestApp([SearchModule, ItemsModule]);

/**
 * A second vector store standing in for a Qdrant collection (no Qdrant server here): it only
 * records what it is sent, which is what these tests look at.
 */
class RecordingStore implements VectorStore {
  readonly vectorsInRecords = false;
  readonly upserted = new Set<string>();
  readonly payloadOnly = new Set<string>();
  constructor(readonly place: string) {}
  ensureReady(): Promise<void> {
    return Promise.resolve();
  }
  upsert(_projectId: string, points: VectorPoint[]): Promise<void> {
    for (const p of points) this.upserted.add(p.itemId);
    return Promise.resolve();
  }
  updatePayload(_projectId: string, items: Array<Omit<VectorPoint, 'vector'>>): Promise<void> {
    for (const i of items) this.payloadOnly.add(i.itemId);
    return Promise.resolve();
  }
  search(): Promise<Array<{ itemId: string; score: number }>> {
    return Promise.resolve([]);
  }
  isEmpty(): Promise<boolean> {
    return Promise.resolve(this.upserted.size === 0);
  }
}

const ids: string[] = [];
const sync = (store: VectorStore) =>
  new EmbeddingSyncService(
    ctx.server.app.get(EmbeddingRepository),
    ctx.server.app.get(MemoryItemAdminRepository),
    ctx.server.app.get(EntityRepository),
    ctx.server.app.get<Embedder>(EMBEDDER),
    store,
  ).sync(ctx.project.projectId);

beforeAll(async () => {
  for (const title of ['Kiwi cache warms at boot', 'Kiwi cache keys are hashed']) {
    const res = await request<{ itemId: string }>(`${ctx.server.url}/api/v2/memory-items`, {
      key: ctx.project.apiKey,
      body: { type: 'ImplementationFact', title, facts: `${title}.` },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.itemId);
  }
  // Embedded into the default store first, as a deployment would be before a switch.
  expect((await sync(ctx.server.app.get<VectorStore>(VECTOR_STORE))).embedded).toBe(2);
});

describe('embedding spaces', () => {
  const embeddings = () => ctx.server.app.get(EmbeddingRepository);
  const embedder = () => ctx.server.app.get<Embedder>(EMBEDDER);

  it('a switch to another store embeds every item into it, not just passes status on', async () => {
    const qdrant = new RecordingStore('qdrant/memex_items');
    expect(await embeddings().invalidateStale(embeddingSpace(embedder(), qdrant), false)).toBe(1);
    const report = await sync(qdrant);
    expect(report).toEqual({ embedded: 2, payloadOnly: 0 });
    expect([...qdrant.upserted].sort()).toEqual([...ids].sort());
    // Caught up: nothing more to send to it.
    expect(await sync(qdrant)).toEqual({ embedded: 0, payloadOnly: 0 });
  });

  it('so does pointing at another collection', async () => {
    const other = new RecordingStore('qdrant/memex_items_v2');
    expect(await embeddings().invalidateStale(embeddingSpace(embedder(), other), false)).toBe(1);
    expect((await sync(other)).embedded).toBe(2);
  });

  it('a store that lost its vectors is filled again once its records are forgotten', async () => {
    const emptied = new RecordingStore('qdrant/memex_items_v2');
    expect(await embeddings().forget(embeddingSpace(embedder(), emptied))).toBe(1);
    expect((await sync(emptied)).embedded).toBe(2);
    expect(emptied.payloadOnly.size).toBe(0);
  });

  it('the postgres space is the model alone, so upgrading keeps its vectors', () => {
    expect(embeddingSpace({ model: 'local-hash/256' }, { place: 'postgres', vectorsInRecords: true })).toBe(
      'local-hash/256',
    );
    expect(embeddingSpace({ model: 'local-hash/256' }, { place: 'qdrant/c', vectorsInRecords: false })).toBe(
      'local-hash/256 in qdrant/c',
    );
  });
});

describe('entity links of items written outside enrichment', () => {
  /** What the entity store says an item names, as `kind:name`. */
  const named = async (itemId: string) => {
    const db = ctx.server.app.get<Kysely<DB>>(KYSELY);
    const { rows } = await sql<{ entity: string }>`
      select e.kind || ':' || e.name as entity from item_entities ie join entities e on e.id = ie.entity_id
       where ie.item_id = ${itemId} order by 1`.execute(db);
    return rows.map((r) => r.entity);
  };

  it('follow a hand-written item when it is embedded, and its edits', async () => {
    const store = ctx.server.app.get<VectorStore>(VECTOR_STORE);
    const created = await request<{ itemId: string }>(`${ctx.server.url}/api/v2/memory-items`, {
      key: ctx.project.apiKey,
      body: {
        type: 'BugFix',
        title: 'Session refresh raced the logout',
        facts: 'refreshToken() in src/auth/session.ts ran after logout cleared the store.',
        files: ['src/auth/session.ts'],
      },
    });
    expect(await named(created.body.itemId)).toEqual([]);
    await sync(store);
    expect(await named(created.body.itemId)).toEqual(
      expect.arrayContaining(['file:src/auth/session.ts', 'symbol:refreshToken']),
    );

    const patched = await request(`${ctx.server.url}/api/v2/memory-items/${created.body.itemId}`, {
      method: 'PATCH',
      key: ctx.project.apiKey,
      body: {
        facts: 'The logout handler in src/auth/logout.ts now calls awaitPendingRefresh() first.',
      },
    });
    expect(patched.status).toBe(200);
    await sync(store);
    const after = await named(created.body.itemId);
    expect(after).toEqual(expect.arrayContaining(['file:src/auth/logout.ts', 'symbol:awaitPendingRefresh']));
    // What the facts no longer say is no longer linked; the item's files still are.
    expect(after).not.toContain('symbol:refreshToken');
    expect(after).toContain('file:src/auth/session.ts');
  });
});
