export * from './items.module';
export * from './manual-items.service';
