export * from './in-process-queue';
export * from './job-registry';
export * from './queue-port';
export * from './redis-connection';
