export * from './context-pack';
export * from './cosine';
export * from './intent';
export * from './local-embedder';
export * from './rrf';
export * from './web-query';
