import { SearchModule } from '@memex/feature-search';
import { EnrichmentService, EnrichmentModule } from '@memex/feature-enrichment';
import { fixtureRawEvents } from '../../../test/support/claude-code-fixtures';
import { storeEvents } from '../../../test/support/events';
import { request, type ErrorBody } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';

// The context pack as spec/context-assembly.md describes it, over a real session the worker
// enriched: entity, relation and pattern components, a strategy and filters from the request.
const ctx = useTestApp([SearchModule, EnrichmentModule]);
const url = (path: string) => `${ctx.server.url}${path}`;

type Component = {
  type: string;
  source: string;
  content: string;
  tokens: number;
  relevanceScore: number;
  evidence?: string[];
};
type Pack = {
  content: string;
  components: Component[];
  tokenCount: number;
  truncated: boolean;
  strategy: {
    budgetAllocation: Record<string, number>;
    recencyWeight: number;
    relevanceWeight: number;
    salienceWeight: number;
    depthLimit: number;
  };
  metadata: {
    intent: string;
    entitiesConsidered: number;
    patternsConsidered: number;
    relationsConsidered: number;
    eventsConsidered: number;
  };
};

const ERROR_QUERY = 'fix error[call-non-callable]: Object of type `_WithException` is not callable in test_cache.py';

async function pack(body: Record<string, unknown>) {
  return request<Pack>(url('/api/v2/context-pack'), { key: ctx.project.apiKey, body: { maxTokens: 2000, ...body } });
}

beforeAll(async () => {
  const { projectId } = ctx.project;
  const events = fixtureRawEvents('fix-type-errors.jsonl');
  const sessionId = await storeEvents(ctx.server.app, projectId, 'fix-type-errors', events);
  await ctx.server.app.get(EnrichmentService).enrichSession(projectId, sessionId, 'run-pack');
});

describe('POST /api/v2/context-pack with entities, relations and patterns', () => {
  it('shows the error seen before with its fix and evidence, the file it names, and the strategy used', async () => {
    const res = await pack({ query: ERROR_QUERY });
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p.metadata.intent).toBe('fix');
    expect(p.strategy).toEqual({
      budgetAllocation: { recent: 15, semantic: 45, entity: 10, relation: 10, pattern: 20 },
      relevanceWeight: 0.6,
      recencyWeight: 0.2,
      salienceWeight: 0.2,
      depthLimit: 2,
    });
    const pattern = p.components.find((c) => c.type === 'pattern')!;
    expect(pattern.content).toMatch(
      /^- _pattern:_ error\[call-non-callable\]: Object of type .* — seen 2 times; fixed by editing test/i,
    );
    expect(pattern.evidence!.length).toBeGreaterThanOrEqual(2);
    const file = p.components.find((c) => c.type === 'entity' && c.content.includes('test/test_cache.py'));
    expect(file).toBeDefined();
    expect(p.metadata.entitiesConsidered).toBeGreaterThanOrEqual(1);
    expect(p.tokenCount).toBeLessThanOrEqual(2000);
    for (const c of p.components) expect(p.content).toContain(c.content);
  });

  it('takes a strategy: weights, allocation and depth are the ones the request gave', async () => {
    const res = await pack({
      query: ERROR_QUERY,
      strategy: {
        budgetAllocation: { pattern: 0 },
        relevanceWeight: 2,
        recencyWeight: 1,
        salienceWeight: 1,
        depthLimit: 0,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.strategy).toMatchObject({
      relevanceWeight: 0.5,
      recencyWeight: 0.25,
      salienceWeight: 0.25,
      depthLimit: 0,
    });
    expect(res.body.strategy.budgetAllocation.pattern).toBe(0);
    expect(res.body.metadata.relationsConsidered).toBe(0);
  });

  it("takes the spec's own names: budgetAllocation.entities, relations, patterns and salientWeight", async () => {
    const res = await pack({
      query: ERROR_QUERY,
      strategy: {
        budgetAllocation: { entities: 20, relations: 0, patterns: 30 },
        salientWeight: 3,
        relevanceWeight: 1,
      },
    });
    expect(res.status).toBe(200);
    // Shares are normalised to 100 with the intent's defaults for the rest: 20 and 30 keep their ratio.
    const { entity, relation, pattern } = res.body.strategy.budgetAllocation;
    expect({ relation, ratio: entity! / pattern! }).toEqual({ relation: 0, ratio: expect.closeTo(20 / 30, 5) });
    expect(res.body.strategy).toMatchObject({ salienceWeight: expect.any(Number) });
    const both = await pack({ query: ERROR_QUERY, strategy: { budgetAllocation: { entity: 10, entities: 20 } } });
    expect(both.status).toBe(400);
  });

  it('applies the filters: entity kinds, event types, excluded ids and since', async () => {
    const first = (await pack({ query: ERROR_QUERY })).body;
    const signature = first.components.find((c) => c.type === 'pattern')!.source;

    const onlyErrors = (
      await pack({
        query: ERROR_QUERY,
        filters: { entityTypes: ['error'], eventTypes: ['error'], exclude: [signature] },
      })
    ).body;
    expect(
      onlyErrors.components.filter((c) => c.type === 'entity').every((c) => c.content.startsWith('- _error:_')),
    ).toBe(true);
    expect(
      onlyErrors.components.filter((c) => c.type === 'recent').every((c) => c.content.startsWith('- _recent error')),
    ).toBe(true);
    expect(onlyErrors.components.filter((c) => c.type === 'recent').length).toBeGreaterThan(0);
    expect(onlyErrors.components.find((c) => c.type === 'pattern')).toBeUndefined();

    const later = (await pack({ query: ERROR_QUERY, filters: { since: Date.now() + 60_000 } })).body;
    // Relations too: none of them was seen after the future instant (the year-2999 case).
    expect(
      later.components.filter((c) => ['recent', 'entity', 'relation', 'pattern', 'semantic'].includes(c.type)),
    ).toEqual([]);
    expect(first.metadata.relationsConsidered).toBeGreaterThan(0);
    expect(later.metadata.relationsConsidered).toBe(0);
  });

  it('leaves out the relations of an excluded entity', async () => {
    const first = (await pack({ query: ERROR_QUERY })).body;
    const entity = first.components.find((c) => c.type === 'entity')!.source;
    const without = (await pack({ query: ERROR_QUERY, filters: { exclude: [entity] } })).body;
    expect(without.components.some((c) => c.type === 'entity' && c.source === entity)).toBe(false);
    expect(without.metadata.relationsConsidered).toBeLessThan(first.metadata.relationsConsidered);
  });

  it.each([
    [{ strategy: { depthLimit: 9 } }],
    [{ strategy: { budgetAllocation: { recent: 101 } } }],
    [{ strategy: { magic: true } }],
    [{ filters: { entityTypes: ['planet'] } }],
    [{ filters: { eventTypes: ['tool_use'] } }],
    [{ filters: { since: 'yesterday' } }],
    [{ filters: { since: 1e16 } }],
    [{ sessionId: 'has space' }],
  ])('answers %o with a 400', async (extra) => {
    const res = await request<ErrorBody>(url('/api/v2/context-pack'), {
      key: ctx.project.apiKey,
      body: { query: 'x', maxTokens: 500, ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});
