export * from './claude-code-chat';
export * from './engine-check';
export * from './model-engine';
export * from './openai-chat';
