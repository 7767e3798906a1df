import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** MCP's code for a resource that does not exist (specification, server/resources, Error Handling). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * The requests this server answers, by method, in the shape the specification gives them. A
 * Map, not an object literal: the method is the client's string, and `__proto__`,
 * `constructor` or `toString` would find what every object inherits.
 */
const REQUEST_SCHEMAS = new Map<string, { safeParse(value: unknown): { success: boolean; error?: unknown } }>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
]);

/** What a server offers, for telling an unknown name from a known one. */
export interface ServedNames {
  tools: ReadonlySet<string>;
  resources: ReadonlySet<string>;
}

function issuesOf(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues ?? [];
  return issues.map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`).join('; ');
}

/**
 * The protocol error (JSON-RPC `error`) a request gets before any handler sees it, or
 * undefined to let it through. The SDK answers params that fail a method's schema with
 * -32603 Internal error and an unknown tool with a tool result; the specification wants
 * -32602 Invalid params for both (tools: "Unknown tools", "Malformed requests" are protocol
 * errors), and -32002 for an unknown resource. A tool's own arguments failing its input
 * schema stay a tool result with `isError: true`, which the model reads and corrects.
 */
export function protocolRefusal(
  request: JSONRPCRequest,
  served: ServedNames,
): JSONRPCErrorResponse['error'] | undefined {
  const schema = REQUEST_SCHEMAS.get(request.method);
  // Methods this server does not have get the SDK's -32601 (its handlers are a Map too).
  if (!schema) return undefined;
  const parsed = schema.safeParse(request);
  if (!parsed.success) {
    return {
      code: ErrorCode.InvalidParams,
      message: `Invalid params for ${request.method}: ${issuesOf(parsed.error)}`,
    };
  }
  const params = request.params as { name?: string; uri?: string };
  if (request.method === 'tools/call' && !served.tools.has(params.name!)) {
    return { code: ErrorCode.InvalidParams, message: `Unknown tool: ${params.name}` };
  }
  if (request.method === 'resources/read' && !served.resources.has(params.uri!)) {
    return { code: RESOURCE_NOT_FOUND, message: 'Resource not found', data: { uri: params.uri } };
  }
  return undefined;
}

/** Answers refused requests on the transport itself; everything else goes on to the server. */
export function guardRequests(transport: Transport, served: ServedNames): void {
  const handle = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const error = isJSONRPCRequest(message) ? protocolRefusal(message, served) : undefined;
    if (!error) return handle?.(message, extra);
    transport.send({ jsonrpc: '2.0', id: (message as JSONRPCRequest).id, error }).catch(() => undefined);
  };
}
