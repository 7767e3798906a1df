export * from './format';
export * from './memex-mcp-server';
export * from './memory-port';
export * from './tool-inputs';
export * from './request-guard';
