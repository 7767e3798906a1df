export * from './claude-code';
