import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMemexMcpServer } from '@memex/mcp';
import type { Connection } from './connection';
import { currentSession, projectDir } from './hook/current-session';
import { flushCurrentSession } from './hook/flush-session';
import { hookConfig } from './hook/hook-config';
import { httpMemory } from './http-memory';
import { MemexHttp } from './memex-http';

/**
 * `memex mcp`: the MCP server on stdin/stdout for an assistant to spawn. stdout carries only
 * protocol messages, so everything else goes to stderr. Without a key it still starts: each
 * tool then says how to configure one, which beats a server the client shows as broken.
 */
export async function serveMcpOnStdio(connection: Connection): Promise<void> {
  const http = new MemexHttp(connection);
  const memory = httpMemory(http);
  const config = hookConfig(process.env);
  const server = createMemexMcpServer(
    {
      ...memory,
      // Its quotes are checked against the session: what the assistant just wrote must be there first.
      remember: async (input) => {
        await flushCurrentSession(connection, http, config).catch(() => undefined);
        return memory.remember(input);
      },
      // The session the hooks last saw in this project directory is the assistant's own: its task stack leads.
      contextPack: async (input) => {
        const current = input.sessionId
          ? undefined
          : await currentSession(config.stateDir, projectDir(process.env, process.cwd())).catch(() => undefined);
        return memory.contextPack(current ? { ...input, sessionId: current.session_id } : input);
      },
    },
    {
      onInternalError: (error, operation) =>
        process.stderr.write(`memex mcp: ${operation} failed: ${(error as Error)?.message ?? String(error)}\n`),
    },
  );
  if (!connection.apiKey) process.stderr.write('memex mcp: no API key configured (MEMEX_API_KEY)\n');
  await server.connect(new StdioServerTransport());
}
