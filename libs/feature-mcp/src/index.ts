export * from './mcp.module';
