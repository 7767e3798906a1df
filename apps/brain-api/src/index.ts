export * from './brain-api.module';
export * from './brain.service';
