export * from './brain-api.module';
