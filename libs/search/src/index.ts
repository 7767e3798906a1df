export * from './context-pack';
export * from './cosine';
export * from './intent';
export * from './local-embedder';
export * from './rrf';
