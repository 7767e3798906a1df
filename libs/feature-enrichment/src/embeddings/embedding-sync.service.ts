import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmbeddingRepository, EntityRepository, MemoryItemAdminRepository, type EmbeddingRecord } from '@memex/db';
import { itemEntities } from '@memex/entities';
import { EMBEDDER, VECTOR_STORE, embeddingSpace, type Embedder, type VectorStore } from '@memex/retrieval';

/** Items embedded per model call and recorded per transaction. */
const BATCH = 128;

export interface SyncReport {
  embedded: number;
  payloadOnly: number;
}

@Injectable()
export class EmbeddingSyncService {
  private readonly logger = new Logger(EmbeddingSyncService.name);

  constructor(
    private readonly embeddings: EmbeddingRepository,
    private readonly items: MemoryItemAdminRepository,
    private readonly entities: EntityRepository,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
  ) {}

  /**
   * Embeds a project's new and changed items and passes status and type changes on, then
   * records the revision it caught up with (read first, so a change made meanwhile leaves the
   * project lagging and brings the poller back).
   */
  async sync(projectId: string): Promise<SyncReport> {
    const space = embeddingSpace(this.embedder, this.store);
    const revision = await this.items.revision(projectId);
    const report: SyncReport = { embedded: 0, payloadOnly: 0 };
    let after: string | null = null;
    for (;;) {
      const batch = await this.embeddings.pending(projectId, space, after, BATCH, this.store.vectorsInRecords);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.itemId;
      const toEmbed = batch.filter((p) => p.text !== null);
      const payloadOnly = batch.filter((p) => p.text === null);
      // A page of status changes only asks the model and the store for nothing it does not need.
      const vectors = toEmbed.length > 0 ? await this.embedder.embed(toEmbed.map((p) => p.text!)) : [];
      const points = toEmbed.map((p, i) => ({ itemId: p.itemId, status: p.status, type: p.type, vector: vectors[i]! }));
      if (points.length > 0) await this.store.upsert(projectId, points);
      if (payloadOnly.length > 0) await this.store.updatePayload(projectId, payloadOnly);
      const records: EmbeddingRecord[] = [
        ...toEmbed.map((p, i) => ({ ...p, vector: this.store.vectorsInRecords ? vectors[i]! : null })),
        ...payloadOnly.map((p) => ({ ...p, vector: null })),
      ];
      await this.embeddings.record(projectId, space, records);
      if (toEmbed.length > 0) {
        await this.linkEntities(
          projectId,
          toEmbed.map((p) => p.itemId),
        );
      }
      report.embedded += toEmbed.length;
      report.payloadOnly += payloadOnly.length;
    }
    await this.embeddings.markCaughtUp(projectId, revision);
    return report;
  }

  /**
   * What items whose text is new or changed name, in the entity store: the enrichment worker
   * links a session's items after each window, but an item a person or an assistant wrote, or
   * one edited later, only passes here (its text changed, so it is embedded again).
   */
  private async linkEntities(projectId: string, itemIds: string[]): Promise<void> {
    try {
      const items = await this.entities.itemsById(projectId, itemIds);
      await this.entities.linkItems(
        projectId,
        items.map((item) => ({ itemId: item.itemId, entities: itemEntities(item) })),
        new Date(),
      );
    } catch (error) {
      // The entity store serves retrieval only: the embeddings stay recorded.
      this.logger.warn({ err: (error as Error).message, projectId }, 'entity links not updated');
    }
  }
}
