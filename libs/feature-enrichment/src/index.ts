export * from './enrichment.module';
export * from './enrichment.service';
export * from './window-writer';
export * from './embeddings/embedding-sync.service';
export { entityWindow } from './entity-recorder';
export { EntityCatchUp } from './entity-catch-up';
