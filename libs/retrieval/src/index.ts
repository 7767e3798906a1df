export * from './local-embedder';
export * from './openai-embedder';
export * from './ports';
export * from './postgres-vector-store';
export * from './qdrant-vector-store';
export * from './retrieval.module';
