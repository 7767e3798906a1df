export * from './operations.module';
