export * from './enqueue-reconciler';
export * from './ingest-api.module';
