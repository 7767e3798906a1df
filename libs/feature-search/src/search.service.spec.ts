import type { SearchHit, SearchRepository } from '@memex/db';
import type { SearchQuery } from '@memex/domain';
import type { Embedder, VectorStore } from '@memex/retrieval';
import type { RedactionService } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import type { PackSources } from './pack-sources';
import { SearchService } from './search.service';

const P1 = '01JD00000000000000000PROJ1';

/** The items a spec searches, by id: what hydrate reads back. */
const ITEMS: Record<string, Pick<SearchHit, 'title' | 'facts'>> = {
  both: { title: 'Webhook sender retries with backoff', facts: 'The webhook sender retries a 502 with backoff.' },
  text: { title: 'Retries are capped at five', facts: 'Every retry loop stops after five tries.' },
  vector: { title: 'Sender queue drains on shutdown', facts: 'The sender drains its queue before the process exits.' },
  collision: { title: 'Release notes are generated', facts: 'Changesets write the release notes.' },
  weak: { title: 'Weakly matching item', facts: 'Matches one rare word of the query.' },
};

function hit(itemId: string): SearchHit {
  return {
    itemId,
    type: 'BugFix',
    status: 'active',
    confidence: 1,
    importance: 3,
    schemaKey: 'root',
    files: [],
    tags: [],
    updatedAt: new Date('2026-11-26T10:00:00Z'),
    rationale: null,
    sessionId: 'S1',
    snippet: ITEMS[itemId]!.facts,
    ...ITEMS[itemId]!,
  } as SearchHit;
}

function setUp({
  fullText = [] as Array<{ id: string; coverage: number }>,
  vector = [] as Array<{ itemId: string; score: number }>,
  embedding = 'works' as 'works' | 'down',
} = {}) {
  const search = fake<SearchRepository>(
    {
      fullText: async () => fullText,
      hydrate: async (_p: string, ids: string[]) => ids.map(hit),
    },
    'search',
  );
  const embedder = fake<Embedder>(
    {
      embedQuery: async () => {
        if (embedding === 'down') throw new Error('embedding endpoint unreachable');
        return new Float32Array(4);
      },
    },
    'embedder',
  );
  const store = fake<VectorStore>({ search: async () => vector }, 'store');
  const redaction = fake<RedactionService>(
    { text: async (_p: string, t: string) => t.replaceAll(/ghp_\w+/g, '[REDACTED:github-token]') },
    'redaction',
  );
  const service = new SearchService(search, embedder, store, redaction, fake<PackSources>({}, 'sources'));
  return { service, search, embedder, store };
}

const query = (q: string, over: Partial<SearchQuery> = {}) =>
  ({ q, mode: 'hybrid', limit: 10, includeArchived: false, ...over }) as SearchQuery;

describe('SearchService.query', () => {
  it('fuses both rankings: an item both sources rank first scores 1, and each source says its own score', async () => {
    const { service } = setUp({
      fullText: [
        { id: 'both', coverage: 0.8 },
        { id: 'text', coverage: 0.4 },
      ],
      vector: [
        { itemId: 'both', score: 0.5 },
        { itemId: 'vector', score: 0.3 },
      ],
    });
    const answer = await service.query(P1, query('webhook sender retries'));
    expect(answer.results.map((r) => r.itemId)).toEqual(['both', 'text', 'vector']);
    expect(answer.results[0]).toMatchObject({
      score: 1,
      ranks: { fullText: 1, vector: 1 },
      scores: { fullText: 0.8, vector: 0.5 },
    });
    expect(answer.results[2]).toMatchObject({
      ranks: { fullText: null, vector: 2 },
      scores: { fullText: null, vector: 0.3 },
    });
    expect(answer.results[0]!.item).toMatchObject({ itemId: 'both', title: ITEMS.both!.title });
    expect(answer.results[0]!.item).not.toHaveProperty('facts');
  });

  it('finds nothing rather than the least bad: hits under the floors, and vector hits that share no word, are left out', async () => {
    const { service } = setUp({
      fullText: [{ id: 'weak', coverage: 0.01 }],
      vector: [
        { itemId: 'collision', score: 0.4 },
        { itemId: 'vector', score: 0.05 },
      ],
    });
    expect((await service.query(P1, query('webhook sender retries'))).results).toEqual([]);
  });

  it('answers from full text alone when the embedder is down', async () => {
    const { service, store } = setUp({ fullText: [{ id: 'text', coverage: 0.5 }], embedding: 'down' });
    const answer = await service.query(P1, query('retries capped'));
    expect(answer.results.map((r) => r.itemId)).toEqual(['text']);
    expect(store.search).not.toHaveBeenCalled();
  });

  it('redacts a secret in the query before it is searched, embedded or echoed', async () => {
    const { service, search, embedder } = setUp();
    const answer = await service.query(P1, query('why does ghp_abcdef123456 fail'));
    expect(answer.query).toBe('why does [REDACTED:github-token] fail');
    expect(JSON.stringify(search.fullText.mock.calls)).not.toContain('ghp_');
    expect(JSON.stringify(embedder.embedQuery.mock.calls)).not.toContain('ghp_');
  });

  it('ranks by one source when asked, and asks the other nothing', async () => {
    const { service, search, store } = setUp({ vector: [{ itemId: 'vector', score: 0.3 }] });
    const answer = await service.query(P1, query('sender queue drains', { mode: 'vector' }));
    expect(answer.results.map((r) => r.itemId)).toEqual(['vector']);
    expect(search.fullText).not.toHaveBeenCalled();
    await service.query(P1, query('sender queue', { mode: 'fulltext' }));
    expect(store.search).toHaveBeenCalledTimes(1);
  });

  it('refuses status=archived without includeArchived', async () => {
    const { service } = setUp();
    await expect(service.query(P1, query('x', { status: 'archived' }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
