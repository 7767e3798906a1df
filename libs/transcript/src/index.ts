export * from './claude-code';
export * from './transcript-batches';
