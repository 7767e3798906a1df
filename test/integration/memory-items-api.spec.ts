import { BrainApiModule } from '../../apps/brain-api/src';
import { EnrichmentWorkerModule } from '../../apps/enrichment-worker/src';
import { ProjectRepository } from '@memex/db';
import { request, type ErrorBody } from '../support/http';
import { useTestApp } from '../support/use-test-app';
import { insertItem } from '../support/items';
import { randomOf } from '../../libs/redaction/src/secret-corpus.fixture';
import { brainApi, type Item } from '../support/brain-api';

const ctx = useTestApp([BrainApiModule, EnrichmentWorkerModule]);
const { url, key, create, patch, brain, revision } = brainApi(ctx);

describe('memory items', () => {
  it('lists with filters and cursor pagination', async () => {
    for (let i = 0; i < 5; i += 1) {
      await create({
        type: 'ImplementationFact',
        title: `Paged work ${i}`,
        facts: 'Pagination fixture.',
        files: ['src/pager/p.ts'],
        confidence: 0.5 + i / 10,
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: Item[]; nextCursor: string | null } } = await request(
        url(
          `/api/v2/memory-items?type=ImplementationFact&schemaKey=root/pager&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        ),
        { key: key() },
      );
      seen.push(...res.body.items.map((i) => i.title));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Paged work 4', 'Paged work 3', 'Paged work 2', 'Paged work 1', 'Paged work 0']);

    const confident = await request<{ items: Item[] }>(url('/api/v2/memory-items?minConfidence=0.75&text=paged'), {
      key: key(),
    });
    expect(confident.body.items.map((i) => i.title).sort()).toEqual(['Paged work 3', 'Paged work 4']);
    const dropped = await create({ type: 'Decision', title: 'Queue jobs in PostgreSQL', facts: 'Moved to Redis.' });
    const deprecate = await patch(dropped.itemId, { action: 'deprecate', reason: 'we moved queues to Redis' });
    expect(deprecate.status).toBe(200);
    const archived = await request<{ items: Item[] }>(url('/api/v2/memory-items?status=archived&type=Decision'), {
      key: key(),
    });
    expect(archived.body.items.map((i) => [i.itemId, i.status])).toEqual([[dropped.itemId, 'archived']]);
    expect((await request(url('/api/v2/memory-items?type=Nonsense'), { key: key() })).status).toBe(400);
  });

  it('returns an item with its history, every change recorded with who and why', async () => {
    const todo = await create({ type: 'Todo', title: 'Write the runbook', facts: 'For on-call.' });
    await patch(todo.itemId, { importance: 4 });
    await patch(todo.itemId, { action: 'resolve', reason: 'runbook merged' });
    const res = await request<{
      item: Item;
      history: Array<{ change: string; reason: string | null; actorType: string }>;
    }>(url(`/api/v2/memory-items/${todo.itemId}`), { key: key() });
    expect(res.body.item.resolvedAt).not.toBeNull();
    expect(res.body.history.map((h) => [h.change, h.reason])).toEqual([
      ['created', 'added by hand'],
      ['edited', null],
      ['resolve', 'runbook merged'],
    ]);
    expect(res.body.history.every((h) => h.actorType === 'user')).toBe(true);

    const reopened = await patch<Item>(todo.itemId, { action: 'reopen' });
    expect(reopened.body.resolvedAt).toBeNull();
  });

  it('redacts secrets in what a person writes: a new item, its evidence, an edit, a reason, a search', async () => {
    const stripe = `sk_live_${randomOf('abcdefghijklmnopqrstuvwxyzABCDEF0123456789', 24)}`;
    const password = `Pw-${randomOf('abcdefghijklmnopqrstuvwxyz0123456789', 12)}`;
    const item = await create({
      type: 'Decision',
      title: `Use the key ${stripe} for billing`,
      facts: `Billing reads postgres://billing:${password}@db/billing.`,
      evidence: [{ eventId: 'ev-1', quote: `the key is ${stripe}` }],
      tags: ['billing'],
    });
    await patch(item.itemId, { rationale: `rotated from ${stripe}`, reason: `leaked ${stripe}` });
    const res = await request<{ item: Record<string, unknown>; history: unknown[] }>(
      url(`/api/v2/memory-items/${item.itemId}`),
      { key: key() },
    );
    expect(res.body.item).toMatchObject({
      title: 'Use the key [REDACTED:stripe-key] for billing',
      facts: 'Billing reads postgres://billing:[REDACTED:password]@db/billing.',
      rationale: 'rotated from [REDACTED:stripe-key]',
      evidenceSpans: [{ eventId: 'ev-1', quote: 'the key is [REDACTED:stripe-key]' }],
    });
    const search = await request<{ query: string }>(
      url(`/api/v2/search?q=${encodeURIComponent(`billing ${stripe}`)}`),
      {
        key: key(),
      },
    );
    expect(search.body.query).toBe('billing [REDACTED:stripe-key]');
    const stored = JSON.stringify([res.body, search.body]);
    expect(stored).not.toContain(stripe);
    expect(stored).not.toContain(password);
  });

  it('refuses an illegal move with 409 naming the allowed moves, changing nothing', async () => {
    const item = await create({ type: 'Decision', title: 'Monorepo with Nx', facts: 'One repository.' });
    const before = await revision();
    const approve = await patch<ErrorBody>(item.itemId, { action: 'approve' });
    expect(approve.status).toBe(409);
    expect(approve.body.error).toMatchObject({
      code: 'ILLEGAL_STATUS_TRANSITION',
      details: { from: 'active', to: 'active', allowed: ['stale', 'superseded', 'review', 'archived'] },
    });
    const resolve = await patch<ErrorBody>(item.itemId, { action: 'resolve' });
    expect(resolve.status).toBe(409);
    expect(await revision()).toBe(before);
  });

  it('approves an item under review, and every change bumps the revision once', async () => {
    const item = await create({
      type: 'Convention',
      title: 'Prefer composition over inheritance',
      facts: 'In services.',
    });
    await ctx.database.db.updateTable('memory_items').set({ status: 'review' }).where('id', '=', item.itemId).execute();
    const before = await revision();
    const res = await patch<Item>(item.itemId, { action: 'approve' });
    expect(res.body.status).toBe('active');
    expect(await revision()).toBe(before + 1);
  });

  it('applies a bulk action to all or none', async () => {
    const a = await create({ type: 'Todo', title: 'Bulk todo A', facts: 'a' });
    const b = await create({ type: 'Todo', title: 'Bulk todo B', facts: 'b' });
    const done = await request<{ updated: number }>(url('/api/v2/memory-items/bulk'), {
      key: key(),
      body: { ids: [a.itemId, b.itemId], action: 'deprecate', reason: 'cleanup' },
    });
    expect(done.body.updated).toBe(2);

    const c = await create({ type: 'Todo', title: 'Bulk todo C', facts: 'c' });
    const mixed = await request<ErrorBody>(url('/api/v2/memory-items/bulk'), {
      key: key(),
      body: { ids: [c.itemId, a.itemId], action: 'deprecate' },
    });
    expect(mixed.status).toBe(409);
    expect(mixed.body.error.message).toContain(a.itemId);
    const untouched = await request<{ item: Item }>(url(`/api/v2/memory-items/${c.itemId}`), { key: key() });
    expect(untouched.body.item.status).toBe('active');
  });

  it('never shows or changes another project’s items (404)', async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    const theirs = await create({ type: 'Decision', title: 'Their decision', facts: 'Private.' }, other.apiKey);
    expect((await request(url(`/api/v2/memory-items/${theirs.itemId}`), { key: key() })).status).toBe(404);
    const edit = await patch(theirs.itemId, { title: 'Mine now' });
    expect(edit.status).toBe(404);
    const bulk = await request(url('/api/v2/memory-items/bulk'), {
      key: key(),
      body: { ids: [theirs.itemId], action: 'deprecate' },
    });
    expect(bulk.status).toBe(404);
    const list = await request<{ items: Item[] }>(url('/api/v2/memory-items?text=Their'), { key: key() });
    expect(list.body.items).toEqual([]);
    expect((await brain()).text).not.toContain('Their decision');
    const stillTheirs = await request<{ item: Item }>(url(`/api/v2/memory-items/${theirs.itemId}`), {
      key: other.apiKey,
    });
    expect(stillTheirs.body.item).toMatchObject({ title: 'Their decision', status: 'active' });
  });

  it('judges an action on the item as the request leaves it', async () => {
    const bug = await create({ type: 'BugFix', title: 'Flaky login test', facts: 'Times out on CI.' });
    const res = await patch<ErrorBody>(bug.itemId, { type: 'Decision', action: 'resolve' });
    expect(res.status).toBe(409);
    const unchanged = await request<{ item: Item }>(url(`/api/v2/memory-items/${bug.itemId}`), { key: key() });
    expect(unchanged.body.item).toMatchObject({ type: 'BugFix', resolvedAt: null });
  });

  it('shows how many files an item has beyond the four it names', async () => {
    const files = Array.from({ length: 10 }, (_, i) => `src/many/f${i}.ts`);
    await create({ type: 'Decision', title: 'Split the many module', facts: 'Ten files.', files, importance: 5 });
    expect((await brain()).text).toMatch(/Split the many module.*files: src\/many\/f0\.ts, .* \+6/);
  });

  it('shows a small project its long notes whole', async () => {
    // A project of more than 250 live items is read only as far as a line's usual room; that
    // read is a saving of memory no answer shows (bench:brain measures it), so only this half is.
    const note = Array.from({ length: 25 }, (_, i) => `Step ${i + 1} of the release runs \`pg_isready\` first.`).join(
      ' ',
    );
    const small = await ctx.server.app.get(ProjectRepository).createWithKey('small-brain');
    await insertItem(ctx.database.db, small.projectId, { type: 'Decision', title: 'Release steps', facts: note });
    const smallBrain = await fetch(url('/api/v2/brain'), { headers: { authorization: `Bearer ${small.apiKey}` } });
    expect(note.length).toBeGreaterThan(900);
    expect(await smallBrain.text()).toContain('Step 25 of the release runs `pg_isready` first.');
  });

  it('takes query integers in plain decimal digits only, on every route that reads one', async () => {
    const routes = [
      '/api/v2/memory-items?limit=',
      '/api/v2/search?q=anything&limit=',
      '/api/v2/hygiene/runs?limit=',
      '/api/v2/brain?tokenBudget=',
    ];
    for (const route of routes) {
      for (const bad of ['0x10', '1e1', '10%20', '%2B10', '10.0', '']) {
        const res = await request<ErrorBody>(url(`${route}${bad}`), { key: key() });
        expect({ route, bad, status: res.status }).toEqual({ route, bad, status: 400 });
      }
    }
    for (const bad of ['0x1', '1e-1', '.5', '']) {
      const res = await request<ErrorBody>(url(`/api/v2/memory-items?minConfidence=${bad}`), { key: key() });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    expect((await request(url('/api/v2/memory-items?limit=10&minConfidence=0.5'), { key: key() })).status).toBe(200);
  });

  it('refuses NUL in list filters with 400 instead of failing in PostgreSQL', async () => {
    for (const query of ['text=%00', 'schemaKey=root%00']) {
      const res = await request<ErrorBody>(url(`/api/v2/memory-items?${query}`), { key: key() });
      expect(res.status).toBe(400);
    }
  });

  it('answers bad bodies with 400 naming the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/v2/memory-items', { type: 'Decision', title: '', facts: 'x' }, 'title'],
      ['POST', '/api/v2/memory-items', { type: 'Decision', title: 't', facts: 'x', tags: ['Bad Tag'] }, 'tags[0]'],
      ['POST', '/api/v2/memory-items', { type: 'Decision', title: 't', facts: 'x', importance: 9 }, 'importance'],
      ['PATCH', '/api/v2/memory-items/01J0000000000000000000000A', {}, '(body)'],
      [
        'PATCH',
        '/api/v2/memory-items/01J0000000000000000000000A',
        { type: 'CodeMapNode' },
        'type: must be one of Decision, Convention, BugFix, Todo, ArchitectureNote, ImplementationFact',
      ],
      ['PATCH', '/api/v2/memory-items/not-an-id', { title: 'x' }, 'id'],
      ['POST', '/api/v2/memory-items/bulk', { ids: [], action: 'deprecate' }, 'ids'],
      ['POST', '/api/v2/memory-items/bulk', { ids: ['01J0000000000000000000000A'], action: 'explode' }, 'action'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await request<ErrorBody>(url(path), { key: key(), method, body });
      expect([res.status, res.body.error.message.startsWith(field)]).toEqual([400, true]);
    }
  });
});
