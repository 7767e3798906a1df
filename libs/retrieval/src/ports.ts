import type { ItemStatus, ItemType } from '@memex/domain';

/** Turns texts into L2-normalized vectors of `dimensions` floats (cosine = dot product). */
export interface Embedder {
  /** Recorded with each embedding: a change of model re-embeds every item. */
  readonly model: string;
  readonly dimensions: number;
  /** Item texts, in batches: worth waiting and retrying for. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** A search's query: someone is waiting, so it fails fast rather than retry. */
  embedQuery(text: string): Promise<Float32Array>;
}

export interface VectorPoint {
  itemId: string;
  vector: Float32Array;
  status: ItemStatus;
  type: ItemType;
}

export interface VectorFilter {
  limit: number;
  statuses: readonly ItemStatus[];
  types?: readonly ItemType[];
}

/** Where item vectors live and are searched; status and type travel with them so filters apply there. */
export interface VectorStore {
  /** The store keeps its vectors in the embedding records themselves (postgres): a record without one is embedded again. */
  readonly vectorsInRecords: boolean;
  /** Where the vectors live: `postgres`, or the Qdrant server and collection. */
  readonly place: string;
  /** Creates what the store needs (a Qdrant collection of the right size); called once at start. */
  ensureReady(dimensions: number): Promise<void>;
  upsert(projectId: string, points: VectorPoint[]): Promise<void>;
  /** Status or type changed, text did not: the vector stays. */
  updatePayload(projectId: string, items: Array<Omit<VectorPoint, 'vector'>>): Promise<void>;
  search(
    projectId: string,
    vector: Float32Array,
    filter: VectorFilter,
  ): Promise<Array<{ itemId: string; score: number }>>;
  /** True when the store holds no vector at all (a Qdrant collection created anew or emptied). */
  isEmpty(): Promise<boolean>;
}

/**
 * What an embedding record was made in: the model, and the store when it is not PostgreSQL
 * (whose records hold their vectors). Records of another space are embedded again, so a
 * switch of model, of store, or of Qdrant server or collection fills the new one by itself.
 */
export function embeddingSpace(
  embedder: Pick<Embedder, 'model'>,
  store: Pick<VectorStore, 'place' | 'vectorsInRecords'>,
): string {
  return store.vectorsInRecords ? embedder.model : `${embedder.model} in ${store.place}`;
}

export const EMBEDDER = Symbol('EMBEDDER');
export const VECTOR_STORE = Symbol('VECTOR_STORE');

/** L2-normalizes in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}
