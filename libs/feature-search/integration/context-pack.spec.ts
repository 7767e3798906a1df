import { EnrichmentModule } from '@memex/feature-enrichment';
import { ItemsModule } from '@memex/feature-items';
import { SearchModule } from '@memex/feature-search';
import { storeEvents, rawEvent } from '../../../test/support/events';
import { request, type ErrorBody } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';
import { useSearchFixture, type Pack } from './search-fixture';

const ctx = useTestApp([SearchModule, ItemsModule, EnrichmentModule], { env: { EMBEDDING_POLL_MS: '200' } });
const { url, key, indexedItems, ids } = useSearchFixture(ctx);

describe('POST /api/v2/context-pack', () => {
  beforeAll(async () => {
    await storeEvents(ctx.server.app, ctx.project.projectId, 'pack-session', [
      rawEvent('prompt', 'The webhook sender fails again on 502'),
    ]);
  });

  it('fits the budget, puts bug fixes first for a fix, and adds recent events', async () => {
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: key(),
      body: { query: 'fix the webhook sender error on 502', maxTokens: 400 },
    });
    expect(res.status).toBe(200);
    const pack = res.body;
    expect(pack.tokenCount).toBeLessThanOrEqual(400);
    expect(pack.tokenCount).toBe(Math.ceil(pack.content.length / 4));
    expect(pack.metadata).toMatchObject({ query: 'fix the webhook sender error on 502', intent: 'fix' });
    const semantic = pack.components.filter((c) => c.type === 'semantic');
    expect(semantic[0]!.source).toBe(ids.webhook);
    const recent = pack.components.filter((c) => c.type === 'recent');
    expect(recent).toHaveLength(1);
    expect(recent[0]!.content).toContain('The webhook sender fails again on 502');
    for (const c of pack.components) expect(pack.content).toContain(c.content);
  });

  it('reaches the kind of memory a question asks for, though it shares no word with it', async () => {
    const [convention] = await indexedItems({
      type: 'Convention',
      title: 'Commit headers are 72 characters or fewer',
      facts: 'Subjects in the imperative; a body after a blank line says why.',
    });
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: key(),
      body: { query: 'how should I format commit messages here?', maxTokens: 600, filters: { includeRecent: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body.components.filter((c) => c.type === 'semantic').map((c) => c.source)).toContain(convention);
  });

  it('shows no harness text and no bare acknowledgement as recent events', async () => {
    await storeEvents(ctx.server.app, ctx.project.projectId, 'chatty-session', [
      rawEvent('prompt', 'Make the webhook sender retry on 503 as well'),
      rawEvent('response', 'Perfect!'),
      rawEvent('prompt', '<local-command-stdout>See ya!</local-command-stdout>'),
    ]);
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: key(),
      body: { query: 'webhook sender retry', maxTokens: 800, sessionId: 'chatty-session' },
    });
    expect(res.status).toBe(200);
    const recent = res.body.components.filter((c) => c.type === 'recent').map((c) => c.content);
    expect(recent.join('\n')).toContain('Make the webhook sender retry on 503');
    expect(recent.join('\n')).not.toMatch(/Perfect!|See ya/);
  });

  it('holds no memory for a query about nothing it holds', async () => {
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: key(),
      body: { query: 'best banana bread recipe', maxTokens: 600, filters: { includeRecent: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body.components).toEqual([]);
  });

  it('takes a long prompt, retrieving by its first words', async () => {
    const query = `fix the webhook sender ${'and then some more words '.repeat(60)}`;
    const res = await request<Pack>(url('/api/v2/context-pack'), { key: key(), body: { query, maxTokens: 300 } });
    expect(res.status).toBe(200);
    expect(res.body.components.find((c) => c.type === 'semantic')?.source).toBe(ids.webhook);
  });

  it('stays within a tiny budget and says what it left out', async () => {
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: key(),
      body: { query: 'webhook', maxTokens: 50, filters: { includeRecent: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body.tokenCount).toBeLessThanOrEqual(50);
    expect(res.body.truncated).toBe(true);
    // What fits is the best line that is short enough: an item, or a file it names.
    expect(res.body.components.length).toBeGreaterThan(0);
  });

  it.each([
    [{}, 400],
    [{ query: 'x' }, 400],
    [{ query: '', maxTokens: 500 }, 400],
    [{ query: 'x', maxTokens: 10 }, 400],
    [{ query: 'x', maxTokens: 500, filters: { types: ['Opinion'] } }, 400],
    [{ query: 'x', maxTokens: 500, extra: true }, 400],
  ])('%o → %i', async (body, status) => {
    const res = await request<ErrorBody>(url('/api/v2/context-pack'), { key: key(), body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});
