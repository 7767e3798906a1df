export * from './enrichment-worker.module';
export * from './enrichment.service';
