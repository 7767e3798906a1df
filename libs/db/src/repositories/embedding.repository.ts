import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { ItemStatus, ItemType } from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

/** An item whose embedding record is missing or out of date. */
export interface PendingEmbedding {
  itemId: string;
  type: ItemType;
  status: ItemStatus;
  hash: string;
  /** The text to embed, or null when only status or type changed. */
  text: string | null;
}

export interface EmbeddingRecord {
  itemId: string;
  type: ItemType;
  status: ItemStatus;
  hash: string;
  /** Kept here by the postgres vector store; null leaves a stored vector as it is. */
  vector: Float32Array | null;
}

export interface StoredVector {
  itemId: string;
  status: ItemStatus;
  type: ItemType;
  vector: Float32Array;
  generation: number;
}

/** Float32 little-endian bytes, as the vector column holds them. */
export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function bytesToVector(bytes: Buffer): Float32Array {
  // A copy: the driver's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** The embedding bookkeeping: what needs embedding, what was embedded with which model, and the postgres store's vectors. */
@Injectable()
export class EmbeddingRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** Projects whose items changed since their embeddings last caught up. */
  async laggingProjects(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select('id')
      .whereRef('memory_revision', '<>', 'embedded_revision')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The next items (by id, after `after`) whose record is missing, stale, of another model, or behind their status or type. */
  async pending(
    projectId: string,
    model: string,
    after: string | null,
    limit: number,
    /** The postgres store keeps vectors in the record: one without (made for Qdrant) is re-embedded. */
    needVector: boolean,
  ): Promise<PendingEmbedding[]> {
    const { rows } = await sql<{ id: string; type: ItemType; status: ItemStatus; hash: string; text: string | null }>`
      select m.id, m.type, m.status, m.embed_hash as hash,
             case when s.needs_text
                  then concat_ws(E'\\n', m.title, m.facts, m.rationale, array_to_string(m.tags, ' '),
                                 array_to_string(m.files, ' '))
             end as text
        from memory_items m
        left join item_embeddings e on e.item_id = m.id
        cross join lateral (
          select (e.item_id is null or e.text_hash <> m.embed_hash or e.model <> ${model}
                  or (${needVector} and e.vector is null)) as needs_text) s
       where m.project_id = ${projectId}
         and m.id > ${after ?? ''}
         and (s.needs_text or e.status <> m.status or e.type <> m.type)
       order by m.id
       limit ${limit}`.execute(this.db);
    return rows.map((r) => ({ itemId: r.id, type: r.type, status: r.status, hash: r.hash, text: r.text }));
  }

  /**
   * Records a batch under a new vector generation of the project. Taking the generation
   * locks the project row, so one project's batches commit in generation order.
   */
  async record(projectId: string, model: string, records: EmbeddingRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      const { vector_generation: generation } = await trx
        .updateTable('projects')
        .set((eb) => ({ vector_generation: eb('vector_generation', '+', 1) }))
        .where('id', '=', projectId)
        .returning('vector_generation')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('item_embeddings')
        .values(
          records.map((r) => ({
            item_id: r.itemId,
            project_id: projectId,
            model,
            text_hash: r.hash,
            status: r.status,
            type: r.type,
            vector: r.vector ? vectorToBytes(r.vector) : null,
            generation,
            synced_at: new Date(),
          })),
        )
        .onConflict((oc) =>
          oc.column('item_id').doUpdateSet((eb) => ({
            model: eb.ref('excluded.model'),
            text_hash: eb.ref('excluded.text_hash'),
            status: eb.ref('excluded.status'),
            type: eb.ref('excluded.type'),
            vector: sql`coalesce(excluded.vector, item_embeddings.vector)`,
            generation: eb.ref('excluded.generation'),
            synced_at: eb.ref('excluded.synced_at'),
          })),
        )
        .execute();
      return generation;
    });
  }

  async markCaughtUp(projectId: string, revision: number): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ embedded_revision: sql`greatest(embedded_revision, ${revision})` })
      .where('id', '=', projectId)
      .execute();
  }

  /**
   * Projects holding records of another model (an embedding space: see embeddingSpace) or,
   * for the postgres store, without vectors are marked lagging, so a changed EMBEDDING_MODEL,
   * EMBEDDING_DIMENSIONS, VECTOR_STORE or Qdrant collection re-embeds them without waiting
   * for their items to change.
   */
  async invalidateStale(model: string, needVector: boolean): Promise<number> {
    const result = await sql`
      update projects p set embedded_revision = -1
       where exists (select 1 from item_embeddings e
                      where e.project_id = p.id and (e.model <> ${model} or (${needVector} and e.vector is null)))`.execute(
      this.db,
    );
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Drops the records of `model` (a store that lost its vectors, e.g. a Qdrant collection
   * made anew) and marks their projects lagging, so every item is embedded into it again.
   */
  async forget(model: string): Promise<number> {
    const result = await sql`
      with gone as (delete from item_embeddings where model = ${model} returning project_id)
      update projects set embedded_revision = -1 where id in (select project_id from gone)`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** The postgres store's vectors of a project, of `model`, written after `generation`. */
  async vectorsSince(projectId: string, generation: number, model: string): Promise<StoredVector[]> {
    const rows = await this.db
      .selectFrom('item_embeddings')
      .select(['item_id', 'status', 'type', 'vector', 'generation'])
      .where('project_id', '=', projectId)
      .where('model', '=', model)
      .where('generation', '>', generation)
      .where('vector', 'is not', null)
      .execute();
    return rows.map((r) => ({
      itemId: r.item_id,
      status: r.status as ItemStatus,
      type: r.type as ItemType,
      vector: bytesToVector(r.vector!),
      generation: r.generation,
    }));
  }
}
