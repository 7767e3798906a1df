export * from './ingest-api.module';
