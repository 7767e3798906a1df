export * from './brain.module';
export * from './brain.service';
