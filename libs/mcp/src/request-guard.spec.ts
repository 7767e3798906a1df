import { ErrorCode, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_NOT_FOUND, protocolRefusal } from './request-guard';

const served = { tools: new Set(['memex_search']), resources: new Set(['memex://brain']) };
const request = (method: string, params?: unknown): JSONRPCRequest =>
  ({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }) as JSONRPCRequest;

describe('protocolRefusal', () => {
  it('lets well-formed requests for served names through, and methods it does not know to the SDK', () => {
    expect(protocolRefusal(request('tools/call', { name: 'memex_search', arguments: {} }), served)).toBeUndefined();
    // A tool's own arguments are the tool's to judge (a tool error the model reads).
    expect(
      protocolRefusal(request('tools/call', { name: 'memex_search', arguments: { query: '' } }), served),
    ).toBeUndefined();
    expect(protocolRefusal(request('resources/read', { uri: 'memex://brain' }), served)).toBeUndefined();
    expect(protocolRefusal(request('tools/list'), served)).toBeUndefined();
    expect(protocolRefusal(request('prompts/list'), served)).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'leaves %s, a name every object inherits, to the SDK as a method it does not have',
    (method) => {
      expect(protocolRefusal(request(method), served)).toBeUndefined();
      expect(protocolRefusal(request(method, { name: 'memex_search' }), served)).toBeUndefined();
    },
  );

  it.each([
    ['tools/call', { arguments: {} }, 'params.name'],
    ['tools/call', { name: 'memex_search', arguments: [1] }, 'params.arguments'],
    ['tools/call', undefined, 'params'],
    ['resources/read', { uri: 7 }, 'params.uri'],
    ['tools/list', { cursor: {} }, 'params.cursor'],
  ])('answers %s with params %j as -32602 naming %s', (method, params, path) => {
    const error = protocolRefusal(request(method, params), served);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining(`${path}:`) });
    expect(error!.message).toMatch(new RegExp(`^Invalid params for ${method}: `));
  });

  it('answers an unknown tool with -32602 and an unknown resource with -32002', () => {
    expect(protocolRefusal(request('tools/call', { name: 'memex_nothing', arguments: {} }), served)).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'Unknown tool: memex_nothing',
    });
    expect(protocolRefusal(request('resources/read', { uri: 'memex://nothing' }), served)).toEqual({
      code: RESOURCE_NOT_FOUND,
      message: 'Resource not found',
      data: { uri: 'memex://nothing' },
    });
  });
});
