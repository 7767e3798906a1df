export * from './enrichment-worker.module';
