import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEMEX_BIN } from '../../../test/support/processes';
import type { TestAppContext } from '../../../test/support/use-test-app';

/** MCP clients of Memex over both transports, as the tests connect them. */
export const TOOLS = ['memex_context_pack', 'memex_get_item', 'memex_get_memory', 'memex_remember', 'memex_search'];
export const RESOURCES = ['memex://brain', 'memex://decisions', 'memex://summary'];

/** Streamable HTTP to the file's test app, with a project key. */
export function httpTransport(ctx: TestAppContext, key: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${ctx.server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
}

/** `memex mcp` as Claude Code starts it: a child process on stdio, configured by environment. */
export function stdioClientTransport(url: string, key: string, env: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [MEMEX_BIN, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      MEMEX_URL: url,
      MEMEX_API_KEY: key,
      MEMEX_LOCAL_STATE_DIR: mkdtempSync(join(tmpdir(), 'memex-mcp-')),
      ...env,
    },
    stderr: 'pipe',
  });
}

export async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'memex-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a resource read (Memex serves markdown, never blobs). */
export async function read(client: Client, uri: string): Promise<{ uri: string; mimeType?: string; text: string }> {
  const { contents } = await client.readResource({ uri });
  const [first] = contents;
  if (!first || !('text' in first)) throw new Error(`${uri}: no text content`);
  return first;
}

export function textOf(result: unknown): string {
  const { content } = result as CallToolResult;
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
