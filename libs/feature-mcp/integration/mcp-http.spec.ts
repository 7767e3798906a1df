import { ItemsModule } from '@memex/feature-items';
import { McpModule } from '@memex/feature-mcp';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { request, type ErrorBody } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';
import { connect, httpTransport, stdioClientTransport, textOf } from './mcp-clients';

const ctx = useTestApp([McpModule, ItemsModule]);

/** A body posted to /mcp as an MCP client posts one, with the project key. */
const post = (body: unknown, accept = 'application/json, text/event-stream') =>
  fetch(`${ctx.server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.project.apiKey}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });

describe('MCP over Streamable HTTP, at the HTTP level', () => {
  it('wants the project key', async () => {
    const missing = await request<ErrorBody>(`${ctx.server.url}/mcp`, { body: {} });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
    await expect(connect(httpTransport(ctx, 'mx_not_a_real_key_0000000000000000000000'))).rejects.toThrow(
      /401|invalid or revoked API key/,
    );
  });

  it('keeps no stream or session: GET and DELETE are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await request<ErrorBody>(`${ctx.server.url}/mcp`, { method, key: ctx.project.apiKey });
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('answers what is not MCP with a 4xx JSON-RPC error, as MCP clients expect', async () => {
    const notJsonRpc = await post({ hello: 1 });
    expect(notJsonRpc.status).toBe(400);
    expect(await notJsonRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const jsonOnly = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'application/json');
    expect(jsonOnly.status).toBe(406);
    expect(await jsonOnly.json()).toMatchObject({ jsonrpc: '2.0', error: { message: /Not Acceptable/ } });
  });

  it('answers requests whose params break the method schema with -32602 Invalid params, not -32603', async () => {
    const call = async (method: string, params: unknown) => {
      const res = await post({ jsonrpc: '2.0', id: 7, method, params });
      return (await res.json()) as { id: number; error?: { code: number; message: string } };
    };
    const cases: Array<[string, unknown, RegExp]> = [
      ['tools/call', { arguments: { query: 'x' } }, /params\.name/],
      ['tools/call', { name: 'memex_search', arguments: 'x' }, /params\.arguments/],
      ['tools/call', undefined, /params/],
      ['resources/read', {}, /params\.uri/],
      ['tools/list', { cursor: 5 }, /params\.cursor/],
    ];
    for (const [method, params, names] of cases) {
      const answer = await call(method, params);
      expect({ method, params, answer }).toMatchObject({
        method,
        answer: { id: 7, error: { code: -32602, message: expect.stringMatching(names) } },
      });
    }
  });

  it('answers a method it does not have, inherited names included, with -32601 Method not found', async () => {
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prompts/list', 'nothing']) {
      const res = await post({ jsonrpc: '2.0', id: 9, method, params: {} });
      const answer = (await res.json()) as unknown;
      expect({ method, status: res.status, answer }).toMatchObject({
        method,
        status: 200,
        answer: { jsonrpc: '2.0', id: 9, error: { code: ErrorCode.MethodNotFound } },
      });
    }
  });
});

describe('memex mcp with the server down', () => {
  it('starts, and each tool says Memex is unreachable', async () => {
    const client = await connect(stdioClientTransport('http://127.0.0.1:9', ctx.project.apiKey));
    try {
      const result = await client.callTool({ name: 'memex_search', arguments: { query: 'anything' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^UNAVAILABLE: Memex is not reachable at http:\/\/127\.0\.0\.1:9/);
    } finally {
      await client.close();
    }
  });
});

/** The spec's context request through the tool: a session's task stack, a strategy, filters. */
