export * from './event-rules';
export * from './text-guards';
