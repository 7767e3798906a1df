import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Config } from '@memex/config';
import { EmbeddingRepository, ItemChanges } from '@memex/db';
import { EMBEDDER, VECTOR_STORE, embeddingSpace, type Embedder, type VectorStore } from '@memex/retrieval';
import { CONFIG, IntervalTask, JobQueue, TtlCache } from '@memex/server';

const PAGE = 500;

/**
 * Every EMBEDDING_POLL_MS, queues an embedding sync for each project whose memory revision
 * moved past the one its embeddings caught up with. Every item change bumps the revision, so
 * nothing is missed, whoever made the change; a project with a sync already waiting or
 * running gets no second one (BullMQ deduplication). Items this process changed are synced at
 * once, without waiting for the poll.
 */
@Injectable()
export class EmbeddingPoller implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EmbeddingPoller.name);
  private readonly task = new IntervalTask(
    () => this.poll(),
    this.logger,
    'embedding poll failed; trying again next interval',
  );

  constructor(
    private readonly embeddings: EmbeddingRepository,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly jobs: JobQueue,
    @Inject(CONFIG) private readonly config: Config,
    private readonly changes: ItemChanges,
  ) {}

  private stopListening: (() => void) | undefined;
  private readonly queuedRecently = new TtlCache<true>(1000, 10_000);

  async onApplicationBootstrap(): Promise<void> {
    const space = embeddingSpace(this.embedder, this.store);
    // A store that lost every vector (a Qdrant volume gone) holds nothing its records claim.
    if (await this.store.isEmpty()) {
      const forgotten = await this.embeddings.forget(space);
      if (forgotten > 0) this.logger.warn({ projects: forgotten, space }, 'the vector store is empty; re-embedding');
    }
    const invalidated = await this.embeddings.invalidateStale(space, this.store.vectorsInRecords);
    if (invalidated > 0) {
      this.logger.log({ projects: invalidated, space }, 're-embedding projects for a new model or store');
    }
    this.task.start(this.config.EMBEDDING_POLL_MS);
    this.stopListening = this.changes.listen((projectId) => {
      // A busy project changes every window; one sync a second absorbs them all.
      if (this.queuedRecently.get(projectId)) return;
      this.queuedRecently.set(projectId, true);
      this.jobs.enqueue('syncEmbeddings', { projectId }, { dedupe: {} }).catch((error: unknown) => {
        // The next poll finds the project lagging all the same.
        this.logger.warn({ projectId, err: (error as Error).message }, 'could not queue an embedding sync');
      });
    });
  }

  onApplicationShutdown(): Promise<void> {
    this.stopListening?.();
    return this.task.stop();
  }

  /** One poll; polls never overlap. Returns how many projects were lagging. */
  runOnce(): Promise<number> {
    return this.task.runOnce();
  }

  private async poll(): Promise<number> {
    const lagging = await this.embeddings.laggingProjects(PAGE);
    if (lagging.length === 0) return 0;
    await this.jobs.enqueueMany(
      'syncEmbeddings',
      lagging.map((projectId) => ({ projectId })),
      { dedupe: {} },
    );
    return lagging.length;
  }
}
