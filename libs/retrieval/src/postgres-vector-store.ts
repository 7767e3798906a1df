import { EmbeddingRepository } from '@memex/db';
import { ITEM_STATUSES, ITEM_TYPES, type ItemStatus, type ItemType } from '@memex/domain';
import { topByCosine } from '@memex/search';
import type { VectorFilter, VectorPoint, VectorStore } from './ports';

/**
 * Each row's status and type as its index in ITEM_STATUSES and ITEM_TYPES: the filter is asked
 * of every row of every search, and a typed array read is a fraction of a string Set lookup
 * (about 1 ms of a search at 10,000 items).
 */
const STATUS_CODE = new Map<ItemStatus, number>(ITEM_STATUSES.map((s, i) => [s, i]));
const TYPE_CODE = new Map<ItemType, number>(ITEM_TYPES.map((t, i) => [t, i]));

/** One project's vectors in memory: rows back to back, with their item, status and type. */
class ProjectVectors {
  ids: string[] = [];
  statuses = new Uint8Array(1024);
  types = new Uint8Array(1024);
  matrix: Float32Array;
  readonly rows = new Map<string, number>();
  generation = 0;
  lastUsed = Date.now();
  /** One refresh at a time: two finishing out of order would put an older row over a newer one. */
  refreshing: Promise<void> | undefined;

  constructor(readonly dimensions: number) {
    this.matrix = new Float32Array(dimensions * 1024);
  }

  put(itemId: string, status: ItemStatus, type: ItemType, vector: Float32Array): void {
    let row = this.rows.get(itemId);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dimensions > this.matrix.length) {
        const grown = new Float32Array(this.matrix.length * 2);
        grown.set(this.matrix);
        this.matrix = grown;
      }
      if (row >= this.statuses.length) {
        this.statuses = grownBytes(this.statuses);
        this.types = grownBytes(this.types);
      }
      this.rows.set(itemId, row);
      this.ids.push(itemId);
    }
    this.statuses[row] = STATUS_CODE.get(status)!;
    this.types[row] = TYPE_CODE.get(type)!;
    if (vector.length === this.dimensions) this.matrix.set(vector, row * this.dimensions);
  }
}

function grownBytes(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(bytes.length * 2);
  grown.set(bytes);
  return grown;
}

/** Which codes a filter takes: 1 at each code of `values`. */
function codeSet<T>(values: readonly T[], codes: Map<T, number>): Uint8Array {
  const set = new Uint8Array(codes.size);
  for (const v of values) {
    const code = codes.get(v);
    if (code !== undefined) set[code] = 1;
  }
  return set;
}

/** How many projects' vectors one process keeps (least recently searched dropped first). */
const MAX_PROJECTS = 8;

/**
 * Vectors in PostgreSQL (the embedding records' `vector` column), searched exactly by cosine
 * in memory. Each search first reads what was embedded since the generation it holds (usually
 * nothing: one indexed query), so results follow the worker within one search.
 */
export class PostgresVectorStore implements VectorStore {
  readonly vectorsInRecords = true;
  readonly place = 'postgres';
  private readonly projects = new Map<string, ProjectVectors>();
  private dimensions = 0;

  constructor(
    private readonly embeddings: EmbeddingRepository,
    /** Only vectors of the query's model are comparable with it. */
    private readonly model: string,
  ) {}

  ensureReady(dimensions: number): Promise<void> {
    this.dimensions = dimensions;
    return Promise.resolve();
  }

  // The vectors are the embedding records' column, written with them by the sync.
  upsert(_projectId: string, _points: VectorPoint[]): Promise<void> {
    return Promise.resolve();
  }

  updatePayload(_projectId: string, _items: Array<Omit<VectorPoint, 'vector'>>): Promise<void> {
    return Promise.resolve();
  }

  /** Its vectors are the records' own: a record without one is embedded again (see pending). */
  isEmpty(): Promise<boolean> {
    return Promise.resolve(false);
  }

  async search(
    projectId: string,
    vector: Float32Array,
    filter: VectorFilter,
  ): Promise<Array<{ itemId: string; score: number }>> {
    const project = await this.refreshed(projectId);
    const statuses = codeSet(filter.statuses, STATUS_CODE);
    const types = filter.types ? codeSet(filter.types, TYPE_CODE) : null;
    const rowStatuses = project.statuses;
    const rowTypes = project.types;
    const hits = topByCosine(
      vector,
      project.matrix,
      project.ids.length,
      filter.limit,
      (row) => statuses[rowStatuses[row]!] === 1 && (types === null || types[rowTypes[row]!] === 1),
    );
    return hits.map((h) => ({ itemId: project.ids[h.row]!, score: h.score }));
  }

  private async refreshed(projectId: string): Promise<ProjectVectors> {
    let project = this.projects.get(projectId);
    if (!project || project.dimensions !== this.dimensions) {
      project = new ProjectVectors(this.dimensions);
      this.projects.set(projectId, project);
      this.evict();
    }
    project.lastUsed = Date.now();
    const target = project;
    target.refreshing ??= this.embeddings
      .vectorsSince(projectId, target.generation, this.model)
      .then((fresh) => {
        for (const v of fresh) {
          target.put(v.itemId, v.status, v.type, v.vector);
          if (v.generation > target.generation) target.generation = v.generation;
        }
      })
      .finally(() => {
        target.refreshing = undefined;
      });
    await target.refreshing;
    return target;
  }

  private evict(): void {
    if (this.projects.size <= MAX_PROJECTS) return;
    const oldest = [...this.projects.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
    if (oldest) this.projects.delete(oldest[0]);
  }
}
