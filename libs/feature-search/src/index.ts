export * from './search.module';
export * from './search.service';
