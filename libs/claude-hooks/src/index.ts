export * from './brain-cache';
export * from './hook-output';
export * from './hook-payload';
export * from './jsonl-lines';
export * from './reflection';
export * from './settings-merge';
