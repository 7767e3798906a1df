export * from './hygiene-worker.module';
