import { ItemsModule } from '@memex/feature-items';
import { SearchModule } from '@memex/feature-search';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';

// An embedding endpoint that takes requests and never answers: search must not wait for it.
let silent: Server;
beforeAll(async () => {
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

const ctx = useTestApp([SearchModule, ItemsModule], {
  env: () => ({
    EMBEDDING_PROVIDER: 'openai',
    EMBEDDING_BASE_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`,
    EMBEDDING_QUERY_TIMEOUT_MS: '300',
  }),
});

type Result = { itemId: string; ranks: { fullText: number | null; vector: number | null } };
type Pack = { components: Array<{ type: string; source: string }> };

const url = (path: string) => `${ctx.server.url}${path}`;
let zebra: string;

beforeAll(async () => {
  const res = await request<{ itemId: string }>(url('/api/v2/memory-items'), {
    key: ctx.project.apiKey,
    body: {
      type: 'BugFix',
      title: 'Zebra crossing timer drifts after midnight',
      facts: 'The zebra crossing timer drifted by an hour after midnight; it now reads UTC.',
    },
  });
  expect(res.status).toBe(201);
  zebra = res.body.itemId;
});

describe('search with the embedding endpoint hung', () => {
  it('answers from full text alone once the query embedding times out', async () => {
    const res = await request<{ results: Result[] }>(url('/api/v2/search?q=zebra%20crossing'), {
      key: ctx.project.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      expect.objectContaining({ itemId: zebra, ranks: { fullText: 1, vector: null } }),
    ]);
  });

  it('a context pack finds items sharing some of the prompt words, not all', async () => {
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: ctx.project.apiKey,
      body: { query: 'please fix the zebra crossing timer problem now', maxTokens: 400 },
    });
    expect(res.status).toBe(200);
    expect(res.body.components.filter((c) => c.type === 'semantic').map((c) => c.source)).toEqual([zebra]);
  });
});
