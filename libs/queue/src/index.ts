export * from './job-registry';
export * from './redis-connection';
