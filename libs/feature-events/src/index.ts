export * from './events.module';
export * from './enqueue-reconciler';
