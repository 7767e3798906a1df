import { QdrantClient } from '@qdrant/js-client-rest';
import { ulidToUUID } from 'ulidx';
import type { Config } from '@memex/config';
import type { VectorFilter, VectorPoint, VectorStore } from './ports';

/** Qdrant point ids are UUIDs or integers; a ULID is 128 bits, so it maps onto a UUID one to one. */
export function ulidToUuid(ulid: string): string {
  return ulidToUUID(ulid).toLowerCase();
}

/**
 * One Qdrant collection for every project: the project id, status and type are payload
 * fields with keyword indexes, and every search filters on the project.
 */
export class QdrantVectorStore implements VectorStore {
  readonly vectorsInRecords = false;
  readonly place: string;
  private readonly client: QdrantClient;
  private readonly collection: string;

  constructor(config: Config) {
    this.client = new QdrantClient({
      url: config.QDRANT_URL!,
      apiKey: config.QDRANT_API_KEY,
      checkCompatibility: false,
    });
    this.collection = config.QDRANT_COLLECTION;
    // The collection names the place, not the server's address (one server has many names);
    // a new server's collection starts empty, which the embedding worker sees at start.
    this.place = `qdrant/${this.collection}`;
  }

  async isEmpty(): Promise<boolean> {
    const { count } = await this.client.count(this.collection, { exact: true });
    return count === 0;
  }

  async ensureReady(dimensions: number): Promise<void> {
    const { exists } = await this.client.collectionExists(this.collection);
    if (exists) {
      const info = await this.client.getCollection(this.collection);
      const vectors = info.config.params.vectors as { size?: number } | undefined;
      if (vectors?.size !== undefined && vectors.size !== dimensions) {
        throw new Error(
          `Qdrant collection ${this.collection} holds ${vectors.size}-dimensional vectors; EMBEDDING_DIMENSIONS is ${dimensions}`,
        );
      }
    } else {
      try {
        await this.client.createCollection(this.collection, { vectors: { size: dimensions, distance: 'Cosine' } });
      } catch (error) {
        // Another process (brain-api and the worker start together) made it first.
        if (!(await this.client.collectionExists(this.collection)).exists) throw error;
      }
    }
    // Idempotent, so every start makes sure of them, whoever created the collection.
    for (const field of ['projectId', 'status', 'type']) {
      await this.client.createPayloadIndex(this.collection, { field_name: field, field_schema: 'keyword', wait: true });
    }
  }

  async upsert(projectId: string, points: VectorPoint[]): Promise<void> {
    if (points.length === 0) return;
    await this.client.upsert(this.collection, {
      wait: true,
      points: points.map((p) => ({
        id: ulidToUuid(p.itemId),
        vector: Array.from(p.vector),
        payload: { projectId, itemId: p.itemId, status: p.status, type: p.type },
      })),
    });
  }

  async updatePayload(projectId: string, items: Array<Omit<VectorPoint, 'vector'>>): Promise<void> {
    // One call per distinct (status, type): a pass that archives thousands sends a handful.
    const groups = new Map<string, string[]>();
    for (const item of items) {
      const key = `${item.status}\u0000${item.type}`;
      const group = groups.get(key);
      if (group) group.push(ulidToUuid(item.itemId));
      else groups.set(key, [ulidToUuid(item.itemId)]);
    }
    for (const [key, ids] of groups) {
      const [status, type] = key.split('\u0000');
      await this.client.setPayload(this.collection, { wait: true, payload: { projectId, status, type }, points: ids });
    }
  }

  async search(
    projectId: string,
    vector: Float32Array,
    filter: VectorFilter,
  ): Promise<Array<{ itemId: string; score: number }>> {
    const must: Array<Record<string, unknown>> = [
      { key: 'projectId', match: { value: projectId } },
      { key: 'status', match: { any: [...filter.statuses] } },
    ];
    if (filter.types) must.push({ key: 'type', match: { any: [...filter.types] } });
    const hits = await this.client.search(this.collection, {
      vector: Array.from(vector),
      limit: filter.limit,
      filter: { must },
      with_payload: ['itemId'],
    });
    return hits.map((h) => ({ itemId: String((h.payload as { itemId: string }).itemId), score: h.score }));
  }
}
