import { EmbeddingRepository } from '@memex/db';
import type { ItemStatus, ItemType } from '@memex/domain';
import { topByCosine } from '@memex/search';
import type { VectorFilter, VectorPoint, VectorStore } from './ports';

/** One project's vectors in memory: rows back to back, with their item, status and type. */
class ProjectVectors {
  ids: string[] = [];
  statuses: ItemStatus[] = [];
  types: ItemType[] = [];
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
      this.rows.set(itemId, row);
      this.ids.push(itemId);
      this.statuses.push(status);
      this.types.push(type);
    }
    this.statuses[row] = status;
    this.types[row] = type;
    if (vector.length === this.dimensions) this.matrix.set(vector, row * this.dimensions);
  }
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
    const statuses = new Set(filter.statuses);
    const types = filter.types ? new Set(filter.types) : null;
    const hits = topByCosine(
      vector,
      project.matrix,
      project.ids.length,
      filter.limit,
      (row) => statuses.has(project.statuses[row]!) && (types === null || types.has(project.types[row]!)),
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
