import type { SearchResultView } from '@memex/domain';
import { request } from '../../../test/support/http';
import type { TestAppContext } from '../../../test/support/use-test-app';
import { waitFor } from '../../../test/support/wait';

/** What search and the context pack answer, as these tests read it. */
export type Result = Pick<SearchResultView, 'itemId' | 'score' | 'ranks' | 'scores' | 'snippet'> & {
  item: Pick<SearchResultView['item'], 'title' | 'type' | 'status'>;
};
export type SearchBody = { query: string; mode: string; results: Result[] };
export type Pack = {
  content: string;
  components: Array<{ type: string; source: string; content: string; tokens: number; relevanceScore: number }>;
  tokenCount: number;
  truncated: boolean;
  metadata: {
    query: string;
    intent: string;
    itemsConsidered: number;
    eventsConsidered: number;
    assemblyTimeMs: number;
  };
};

/**
 * The search routes of the file's test app, and the items every search test starts from: it
 * registers the `beforeAll` that creates and indexes them, so call it at the file's top level.
 */
export function useSearchFixture(ctx: TestAppContext) {
  const url = (path: string) => `${ctx.server.url}${path}`;
  const key = () => ctx.project.apiKey;

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await request<{ itemId: string }>(url('/api/v2/memory-items'), { key: key(), body });
    expect(res.status).toBe(201);
    return res.body.itemId;
  }

  /** Waits until the embedding worker has caught up with every item change of the project. */
  async function indexed(projectId = ctx.project.projectId): Promise<void> {
    await waitFor(async () => {
      const row = await ctx.database.db
        .selectFrom('projects')
        .select(['memory_revision', 'embedded_revision'])
        .where('id', '=', projectId)
        .executeTakeFirstOrThrow();
      return row.embedded_revision === row.memory_revision;
    });
  }

  /** Creates the items in turn and waits until search has indexed them: their ids, in order. */
  async function indexedItems<B extends Array<Record<string, unknown>>>(
    ...bodies: B
  ): Promise<{ [K in keyof B]: string }> {
    const created: string[] = [];
    for (const body of bodies) created.push(await create(body));
    await indexed();
    return created as { [K in keyof B]: string };
  }

  async function search(query: string): Promise<SearchBody> {
    const res = await request<SearchBody>(url(`/api/v2/search?${query}`), { key: key() });
    expect(res.status).toBe(200);
    return res.body;
  }

  /** A webhook fix, an identifier in camelCase, a decision, and an archived item, indexed. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ids.webhook = await create({
      type: 'BugFix',
      title: 'Webhook sender lost events on 502 answers',
      facts: 'The webhook sender dropped deliveries when the receiver answered 502; it now retries with backoff.',
      files: ['src/webhooks/sender.ts'],
    });
    ids.camel = await create({
      type: 'ImplementationFact',
      title: 'Delivery helper',
      facts: 'Added retryWebhookSender() in src/delivery/retryWebhookSender.ts, called from the outbox loop.',
    });
    ids.postgres = await create({
      type: 'Decision',
      title: 'PostgreSQL is the source of truth',
      facts: 'Events are committed to PostgreSQL before any job is enqueued.',
      rationale: 'Redis may lose data; a reconciler re-enqueues from PostgreSQL.',
    });
    ids.archived = await create({
      type: 'ImplementationFact',
      title: 'Old webhook queue',
      facts: 'The webhook queue used to live in Redis lists.',
    });
    const res = await request(url(`/api/v2/memory-items/${ids.archived}`), {
      method: 'PATCH',
      key: key(),
      body: { action: 'deprecate', reason: 'replaced' },
    });
    expect(res.status).toBe(200);
    await indexed();
  });

  return { url, key, create, indexed, indexedItems, search, ids };
}
