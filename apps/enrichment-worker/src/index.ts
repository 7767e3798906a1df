export * from './enrichment-worker.module';
export * from './enrichment.service';
export * from './window-writer';
