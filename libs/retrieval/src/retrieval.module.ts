import { Global, Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { Config } from '@memex/config';
import { EmbeddingRepository } from '@memex/db';
import { CONFIG } from '@memex/server';
import { LocalEmbedder } from './local-embedder';
import { OpenAiEmbedder } from './openai-embedder';
import { PostgresVectorStore } from './postgres-vector-store';
import { EMBEDDER, VECTOR_STORE, type Embedder, type VectorStore } from './ports';
import { QdrantVectorStore } from './qdrant-vector-store';

/** The embedder and vector store the configuration names, the store made ready at start. */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDER,
      inject: [CONFIG],
      useFactory: (config: Config): Embedder =>
        config.EMBEDDING_PROVIDER === 'openai'
          ? new OpenAiEmbedder(config)
          : new LocalEmbedder(config.EMBEDDING_DIMENSIONS),
    },
    {
      provide: VECTOR_STORE,
      inject: [CONFIG, EmbeddingRepository, EMBEDDER],
      useFactory: (config: Config, embeddings: EmbeddingRepository, embedder: Embedder): VectorStore =>
        config.VECTOR_STORE === 'qdrant'
          ? new QdrantVectorStore(config)
          : new PostgresVectorStore(embeddings, embedder.model),
    },
  ],
  exports: [EMBEDDER, VECTOR_STORE],
})
export class RetrievalModule implements OnModuleInit {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.store.ensureReady(this.embedder.dimensions);
  }
}
