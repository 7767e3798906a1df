import { EnrichmentModule, EnrichmentService } from '@memex/feature-enrichment';
import { SearchModule } from '@memex/feature-search';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { request } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';

// One session of three points, each said on purpose: what a pack adds around a hit is only for
// a question about them, not for one that shares a single word with one of them.
const ctx = useTestApp([SearchModule, EnrichmentModule]);

type Pack = { components: Array<{ type: string; content: string }> };

async function pack(query: string): Promise<Pack['components']> {
  const res = await request<Pack>(`${ctx.server.url}/api/v2/context-pack`, {
    key: ctx.project.apiKey,
    body: { query, maxTokens: 1500, filters: { includeRecent: false } },
  });
  expect(res.status).toBe(200);
  return res.body.components;
}

const lines = (components: Pack['components']) => components.map((c) => c.content).join('\n');

beforeAll(async () => {
  const { projectId } = ctx.project;
  const sessionId = await storeEvents(ctx.server.app, projectId, 'ledger', [
    rawEvent('prompt', 'How should the ledger keep money?'),
    rawEvent(
      'response',
      '[MEMORY: decision: Store every amount as integer cents in the ledger service]\n' +
        '[MEMORY: convention: Every API handler validates its request body with zod in src/api/handlers.ts]\n' +
        '[MEMORY: architecture: The outbox loop in src/outbox/loop.ts delivers webhooks after each commit]',
    ),
  ]);
  await ctx.server.app.get(EnrichmentService).enrichSession(projectId, sessionId, 'run-anchor');
});

describe('a context pack around its hits', () => {
  it('adds the hit session’s other points for a question about the project', async () => {
    const found = lines(await pack('why does the ledger keep integer cents?'));
    expect(found).toContain('integer cents in the ledger service');
    expect(found).toMatch(/validates its request body with zod|outbox loop/);
  });

  it('gives only the hit itself to a query that shares one word with it, and no salient entity', async () => {
    const components = await pack('how many cents does a ripe tomato cost at the market');
    expect(lines(components)).toContain('integer cents in the ledger service');
    expect(lines(components)).not.toMatch(/zod|outbox/);
    expect(components.filter((c) => c.type === 'entity')).toEqual([]);
  });
});
