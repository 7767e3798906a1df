import { Logger } from '@nestjs/common';
import type {
  EmbeddingRecord,
  EmbeddingRepository,
  EntityRepository,
  MemoryItemAdminRepository,
  PendingEmbedding,
} from '@memex/db';
import type { Embedder, VectorPoint, VectorStore } from '@memex/retrieval';
import { fake } from '../../../../test/support/fakes';
import { EmbeddingSyncService } from './embedding-sync.service';

const P = 'p1';

function pending(itemId: string, text: string | null): PendingEmbedding {
  return { itemId, type: 'Decision', status: 'active', hash: `h-${itemId}`, text };
}

/** A vector of one dimension per text: its length, so a spec can tell which text a vector was made from. */
const embedder: Embedder = {
  model: 'memex-local-hash-v2/1',
  dimensions: 1,
  embed: async (texts) => texts.map((t) => Float32Array.of(t.length)),
  embedQuery: async (t) => Float32Array.of(t.length),
};

afterEach(() => jest.restoreAllMocks());

/**
 * A project whose pending items come in the given pages (each read after the last id of the
 * one before), a store that keeps vectors in the records (postgres) unless told otherwise, and
 * an entity store that links or fails.
 */
function setUp({
  pages,
  revision = 7,
  inRecords = true,
  linkFails = false,
}: {
  pages: PendingEmbedding[][];
  revision?: number;
  inRecords?: boolean;
  linkFails?: boolean;
}) {
  const left = [...pages];
  const embeddings = fake<EmbeddingRepository>(
    {
      pending: async () => left.shift() ?? [],
      record: async (_p: string, _m: string, records: EmbeddingRecord[]) => records.length,
      markCaughtUp: async () => undefined,
    },
    'embeddings',
  );
  const items = fake<MemoryItemAdminRepository>({ revision: async () => revision }, 'items');
  const entities = fake<EntityRepository>(
    {
      itemsById: async (_p: string, ids: readonly string[]) =>
        ids.map((itemId) => ({
          itemId,
          title: 'Uses `pg_isready`',
          facts: 'Runs `scripts/wait.sh`.',
          rationale: null,
          files: [],
        })),
      linkItems: async () => {
        if (linkFails) throw new Error('entity store down');
      },
    },
    'entities',
  );
  const store = fake<VectorStore>(
    {
      vectorsInRecords: inRecords,
      place: inRecords ? 'postgres' : 'qdrant http://q:6333 memex',
      upsert: async (_p: string, _points: VectorPoint[]) => undefined,
      updatePayload: async () => undefined,
    },
    'store',
  );
  const service = new EmbeddingSyncService(embeddings, items, entities, embedder, store);
  return { service, embeddings, items, entities, store };
}

describe('EmbeddingSyncService', () => {
  it('embeds items whose text changed, passes status and type changes on without a model call, and records both', async () => {
    const { service, embeddings, store } = setUp({ pages: [[pending('a', 'money'), pending('b', null)]] });

    await expect(service.sync(P)).resolves.toEqual({ embedded: 1, payloadOnly: 1 });

    expect(store.upsert).toHaveBeenCalledWith(P, [
      { itemId: 'a', status: 'active', type: 'Decision', vector: Float32Array.of(5) },
    ]);
    expect(store.updatePayload).toHaveBeenCalledWith(P, [pending('b', null)]);
    const [, space, records] = embeddings.record.mock.calls[0]!;
    expect(space).toBe('memex-local-hash-v2/1');
    expect(records.map((r) => [r.itemId, r.vector])).toEqual([
      ['a', Float32Array.of(5)],
      ['b', null],
    ]);
  });

  it('reads page after page from the last id, and records the revision read before the first page', async () => {
    const { service, embeddings, items } = setUp({
      pages: [[pending('a', 'one'), pending('c', 'three')], [pending('d', 'four')]],
      revision: 41,
    });

    await expect(service.sync(P)).resolves.toEqual({ embedded: 3, payloadOnly: 0 });

    expect(embeddings.pending.mock.calls.map((c) => c[2])).toEqual([null, 'c', 'd']);
    expect(embeddings.markCaughtUp).toHaveBeenCalledWith(P, 41);
    // Read first: an item changed while the pages were embedded leaves the project behind.
    expect(items.revision.mock.invocationCallOrder[0]).toBeLessThan(embeddings.pending.mock.invocationCallOrder[0]!);
  });

  it('leaves vectors out of the records for a store that keeps its own (Qdrant), and names that store in the space', async () => {
    const { service, embeddings } = setUp({ pages: [[pending('a', 'money')]], inRecords: false });

    await service.sync(P);

    const [, space, records] = embeddings.record.mock.calls[0]!;
    expect(space).toBe('memex-local-hash-v2/1 in qdrant http://q:6333 memex');
    expect(records[0]!.vector).toBeNull();
    expect(embeddings.pending.mock.calls[0]![4]).toBe(false);
  });

  it('links what newly embedded items name in the entity store, and only those', async () => {
    const { service, entities } = setUp({ pages: [[pending('a', 'money'), pending('b', null)]] });

    await service.sync(P);

    expect(entities.itemsById).toHaveBeenCalledWith(P, ['a']);
    const [, links] = entities.linkItems.mock.calls[0]!;
    expect(links).toHaveLength(1);
    expect(links[0]!.itemId).toBe('a');
    expect(links[0]!.entities.map((e) => e.name)).toEqual(expect.arrayContaining(['scripts/wait.sh']));
  });

  it('keeps the embeddings recorded and the project caught up when the entity store fails, and says so', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { service, embeddings } = setUp({ pages: [[pending('a', 'money')]], linkFails: true });

    await expect(service.sync(P)).resolves.toEqual({ embedded: 1, payloadOnly: 0 });

    expect(embeddings.record).toHaveBeenCalledTimes(1);
    expect(embeddings.markCaughtUp).toHaveBeenCalledWith(P, 7);
    expect(warn).toHaveBeenCalledWith({ err: 'entity store down', projectId: P }, 'entity links not updated');
  });

  it('records nothing when the vector store fails, so the items stay pending for the next pass', async () => {
    const { service, embeddings, store } = setUp({ pages: [[pending('a', 'money')]] });
    store.upsert.mockRejectedValueOnce(new Error('qdrant unreachable'));

    await expect(service.sync(P)).rejects.toThrow('qdrant unreachable');

    expect(embeddings.record).not.toHaveBeenCalled();
    expect(embeddings.markCaughtUp).not.toHaveBeenCalled();
  });

  it('marks a project with nothing pending caught up without calling the model', async () => {
    const embed = jest.spyOn(embedder, 'embed');
    const { service, embeddings } = setUp({ pages: [] });

    await expect(service.sync(P)).resolves.toEqual({ embedded: 0, payloadOnly: 0 });

    expect(embed).not.toHaveBeenCalled();
    expect(embeddings.markCaughtUp).toHaveBeenCalledWith(P, 7);
  });

  it('passes a page of status changes on without asking the model, the vector store or the entity store for more', async () => {
    const embed = jest.spyOn(embedder, 'embed');
    const { service, embeddings, store, entities } = setUp({ pages: [[pending('b', null)]] });

    await expect(service.sync(P)).resolves.toEqual({ embedded: 0, payloadOnly: 1 });

    expect(embed).not.toHaveBeenCalled();
    expect(store.upsert).not.toHaveBeenCalled();
    expect(store.updatePayload).toHaveBeenCalledWith(P, [pending('b', null)]);
    expect(entities.itemsById).not.toHaveBeenCalled();
    expect(embeddings.record).toHaveBeenCalledTimes(1);
  });
});
