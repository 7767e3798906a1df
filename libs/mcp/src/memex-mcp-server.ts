import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import {
  forModel,
  formatContextPack,
  formatDecisions,
  formatItem,
  formatRemembered,
  formatSearchResults,
} from './format';
import { MemoryError, type MemoryPort } from './memory-port';
import { guardRequests } from './request-guard';
import {
  DEFAULT_PACK_TOKENS,
  contextPackInput,
  getItemInput,
  getMemoryInput,
  rememberInput,
  searchInput,
} from './tool-inputs';

export const MCP_SERVER_NAME = 'memex';
/** Reported as the MCP server version; follows package.json. */
export const MEMEX_VERSION = '0.1.0';

const INSTRUCTIONS = [
  "Memex is this project's long-term memory: decisions, conventions, bug fixes, todos and",
  'architecture notes gathered from earlier sessions.',
  'Use memex_search or memex_context_pack before changing unfamiliar code, and memex_get_item',
  'for the full text of a result. Record a decision, convention, fix or open work worth keeping',
  "with memex_remember, quoting your own words or the person's exactly (Memex checks the quotes",
  'against the session). memex_get_memory returns the whole project brain.',
].join(' ');

export interface MemexMcpOptions {
  /** Told about failures that are not the caller's doing; the model only sees a short message. */
  onInternalError?: (error: unknown, operation: string) => void;
}

/** An McpServer that answers malformed requests and unknown names with the specification's protocol errors. */
class MemexMcpServer extends McpServer {
  readonly served = { tools: new Set<string>(), resources: new Set<string>() };

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    guardRequests(transport, this.served);
  }
}

/** One MCP server over a MemoryPort: the same tools and resources on stdio and on HTTP. */
export function createMemexMcpServer(memory: MemoryPort, options: MemexMcpOptions = {}): McpServer {
  const server = new MemexMcpServer({ name: MCP_SERVER_NAME, version: MEMEX_VERSION }, { instructions: INSTRUCTIONS });

  const failure = (error: unknown, operation: string): string => {
    if (error instanceof MemoryError) return `${error.code}: ${error.message}`;
    options.onInternalError?.(error, operation);
    return `INTERNAL: Memex could not complete ${operation}; try again later.`;
  };

  /** A tool's handler (its name now served): a failure becomes a tool error the model can read and act on. */
  const tool = <A>(name: string, run: (args: A) => Promise<CallToolResult>) => {
    server.served.tools.add(name);
    return async (args: A): Promise<CallToolResult> => {
      try {
        return forModel(await run(args));
      } catch (error) {
        return forModel({ content: [{ type: 'text', text: failure(error, name) }], isError: true });
      }
    };
  };
  const text = (value: string) => [{ type: 'text' as const, text: value }];

  server.registerTool(
    'memex_get_memory',
    {
      title: 'Project brain',
      description: "The project's layered memory as markdown: brief, decisions, conventions, open work.",
      inputSchema: getMemoryInput,
      annotations: { readOnlyHint: true },
    },
    tool('memex_get_memory', async ({ tokenBudget }: { tokenBudget?: number }) => {
      const brain = await memory.brain(tokenBudget);
      return { content: text(brain.document) };
    }),
  );

  server.registerTool(
    'memex_search',
    {
      title: 'Search memory',
      description: 'Hybrid full-text and semantic search over memory items; most relevant first.',
      inputSchema: searchInput,
      annotations: { readOnlyHint: true },
    },
    tool('memex_search', async (args: Parameters<MemoryPort['search']>[0]) => {
      const { results } = await memory.search(args);
      return { content: text(formatSearchResults(args.query, results)), structuredContent: { results } };
    }),
  );

  server.registerTool(
    'memex_context_pack',
    {
      title: 'Context pack',
      description: 'The memory most relevant to a task, packed to fit a token budget.',
      inputSchema: contextPackInput,
      annotations: { readOnlyHint: true },
    },
    tool(
      'memex_context_pack',
      async (args: Omit<Parameters<MemoryPort['contextPack']>[0], 'maxTokens'> & { maxTokens?: number }) => {
        const pack = await memory.contextPack({ ...args, maxTokens: args.maxTokens ?? DEFAULT_PACK_TOKENS });
        return { content: text(formatContextPack(pack)), structuredContent: { ...pack } };
      },
    ),
  );

  server.registerTool(
    'memex_remember',
    {
      title: 'Remember',
      description:
        "Record a memory for later sessions (a decision and why, a convention, a bug's cause and fix, open work), with verbatim quotes of this session that show it.",
      inputSchema: rememberInput,
    },
    tool('memex_remember', async (args: Parameters<MemoryPort['remember']>[0]) => {
      const item = await memory.remember(args);
      return {
        content: text(formatRemembered(item)),
        structuredContent: { itemId: item.itemId, type: item.type, status: item.status },
      };
    }),
  );

  server.registerTool(
    'memex_get_item',
    {
      title: 'Memory item',
      description: 'One memory item in full: facts, rationale, files, status.',
      inputSchema: getItemInput,
      annotations: { readOnlyHint: true },
    },
    tool('memex_get_item', async ({ id }: { id: string }) => {
      const item = await memory.getItem(id);
      return { content: text(formatItem(item)), structuredContent: { ...item } };
    }),
  );

  /** A resource's reader (its URI now served). */
  const resource = (read: () => Promise<string>, uri: string) => {
    server.served.resources.add(uri);
    return async (asked: URL) => {
      let body: string;
      try {
        body = await read();
      } catch (error) {
        throw new Error(forModel(failure(error, uri)));
      }
      const result: ReadResourceResult = {
        contents: [{ uri: asked.href, mimeType: 'text/markdown', text: forModel(body) }],
      };
      return result;
    };
  };

  server.registerResource(
    'brain',
    'memex://brain',
    {
      title: 'Project brain',
      description: "The project's layered memory (default budget).",
      mimeType: 'text/markdown',
    },
    resource(async () => (await memory.brain()).document, 'memex://brain'),
  );
  server.registerResource(
    'summary',
    'memex://summary',
    { title: 'Project summary', description: 'A short summary of the project memory.', mimeType: 'text/markdown' },
    resource(async () => (await memory.summary()).document, 'memex://summary'),
  );
  server.registerResource(
    'decisions',
    'memex://decisions',
    { title: 'Decisions', description: 'Every active decision with its rationale.', mimeType: 'text/markdown' },
    resource(async () => formatDecisions(await memory.decisions()), 'memex://decisions'),
  );

  return server;
}
