import { Client } from 'pg';
import { BrainApiModule } from '../../apps/brain-api/src';
import { EnrichmentService } from '@memex/feature-enrichment';
import { EnrichmentWorkerModule } from '../../apps/enrichment-worker/src';
import { ProjectRepository } from '@memex/db';
import { PRODUCER_REDIS } from '@memex/server';
import { itServerOnly } from '../support/mode';
import { rawEvent, storeEvents } from '../support/events';
import { request, type ErrorBody } from '../support/http';
import { useTestApp } from '../support/use-test-app';
import { insertItem } from '../support/items';
import { waitFor } from '../support/wait';
import { randomOf } from '../../libs/redaction/src/secret-corpus.fixture';

const ctx = useTestApp([BrainApiModule, EnrichmentWorkerModule]);

type Item = { itemId: string; title: string; status: string; resolvedAt: string | null; type: string };
type BrainBody = {
  document: string;
  tokenEstimate: number;
  itemsLoaded: number;
  schemaKeys: string[];
  brainHash: string;
  tree: unknown[];
  layers: Record<string, { items: number; tokens: number }>;
};

const url = (path: string) => `${ctx.server.url}${path}`;
const key = () => ctx.project.apiKey;

async function create(body: Record<string, unknown>, k = key()): Promise<Item> {
  const res = await request<Item>(url('/api/v2/memory-items'), { key: k, body });
  expect(res.status).toBe(201);
  return res.body;
}

async function brain(query = '', headers: Record<string, string> = {}) {
  const response = await fetch(url(`/api/v2/brain${query}`), {
    headers: { authorization: `Bearer ${key()}`, ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    type: response.headers.get('content-type'),
    text,
  };
}

async function revision(): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('projects')
    .select('memory_revision')
    .where('id', '=', ctx.project.projectId)
    .executeTakeFirstOrThrow();
  return row.memory_revision;
}

describe('brain', () => {
  let decision: Item;
  beforeAll(async () => {
    decision = await create({
      type: 'Decision',
      title: 'Use PostgreSQL for everything',
      facts: 'One datastore.',
      importance: 5,
    });
    await create({
      type: 'Convention',
      title: 'Name files in kebab-case',
      facts: 'user-profile.ts, not UserProfile.ts.',
    });
    await create({ type: 'Todo', title: 'Rotate the webhook secret', facts: 'Before launch.', importance: 3 });
  });

  it('serves the layered document with its metadata and an ETag', async () => {
    const res = await brain();
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as BrainBody;
    expect(body.document).toContain('## Project Brief');
    expect(body.document).toContain('**Use PostgreSQL for everything**');
    expect(body).toMatchObject({ itemsLoaded: 3, schemaKeys: expect.arrayContaining(['root/decisions']) });
    expect(body.layers.layer1).toMatchObject({ items: 3 });
    expect(body.tokenEstimate).toBeLessThanOrEqual(6000);
    expect(res.etag).toBe(`"${body.brainHash}"`);
  });

  itServerOnly(
    'answers a revalidation with the current ETag with 304 and no body, without reading item rows',
    'holds a lock from a second database connection',
    async () => {
      const first = await brain();
      // Hold every item row: a revalidation that read them would wait here.
      const locker = new Client({ connectionString: ctx.database.url });
      await locker.connect();
      await locker.query('begin');
      await locker.query('lock table memory_items in access exclusive mode');
      try {
        const again = await brain('', { 'if-none-match': first.etag! });
        expect(again.status).toBe(304);
        expect(again.text).toBe('');
        expect(again.etag).toBe(first.etag);
      } finally {
        await locker.query('rollback');
        await locker.end();
      }
    },
  );

  it('serves the document itself as markdown', async () => {
    const res = await brain('', { accept: 'text/markdown' });
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/markdown');
    expect(res.text.startsWith('# Project brain: test')).toBe(true);
  });

  it('keeps to the budget asked for, and refuses budgets outside 500–100,000', async () => {
    const small = JSON.parse((await brain('?tokenBudget=500')).text) as BrainBody;
    expect(small.tokenEstimate).toBeLessThanOrEqual(500);
    for (const bad of ['499', '100001', 'lots', '1.5', '0x1f4', '6e3', '500%20', '%2B500', '']) {
      const res = await request<ErrorBody>(url(`/api/v2/brain?tokenBudget=${bad}`), { key: key() });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^tokenBudget/);
    }
    expect((await request(url('/api/v2/brain?budget=5'), { key: key() })).status).toBe(400);
  });

  it('shows any change to the items in the next response: an edit, a deprecation, enrichment', async () => {
    const before = await brain();
    const edit = await request<Item>(url(`/api/v2/memory-items/${decision.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { title: 'Use PostgreSQL for everything, queues included' },
    });
    expect(edit.status).toBe(200);
    const afterEdit = await brain('', { 'if-none-match': before.etag! });
    expect(afterEdit.status).toBe(200);
    expect(afterEdit.text).toContain('queues included');

    const deprecate = await request(url(`/api/v2/memory-items/${decision.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { action: 'deprecate', reason: 'we moved queues to Redis' },
    });
    expect(deprecate.status).toBe(200);
    expect((await brain()).text).not.toContain('queues included');

    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'brain-follows', [
      rawEvent('prompt', 'Always validate webhook signatures before parsing the body.'),
    ]);
    await ctx.server.app.get(EnrichmentService).enrichSession(ctx.project.projectId, sessionId, 'run-brain');
    expect((await brain()).text).toContain('Always validate webhook signatures before parsing the body');
  });

  it('sees a change written to the database behind its back once PostgreSQL announces it', async () => {
    const before = await brain();
    await ctx.database.db
      .updateTable('memory_items')
      .set({ title: 'Renamed behind its back' })
      .where('project_id', '=', ctx.project.projectId)
      .where('type', '=', 'Convention')
      .execute();
    await ctx.database.db
      .updateTable('projects')
      .set((eb) => ({ memory_revision: eb('memory_revision', '+', 1) }))
      .where('id', '=', ctx.project.projectId)
      .execute();
    await waitFor(async () => (await brain('', { 'if-none-match': before.etag! })).status === 200, 2000);
    expect((await brain()).text).toContain('Renamed behind its back');
  });

  itServerOnly(
    'sees a change made by another process once PostgreSQL announces it, and reads revisions itself while it cannot listen',
    'another process and a listening connection to cut',
    async () => {
      const before = await brain();
      const other = new Client({ connectionString: ctx.database.url });
      await other.connect();
      try {
        await other.query(
          `update memory_items set title = 'Renamed elsewhere' where project_id = $1 and type = 'Convention'`,
          [ctx.project.projectId],
        );
        await other.query('update projects set memory_revision = memory_revision + 1 where id = $1', [
          ctx.project.projectId,
        ]);
        await waitFor(async () => (await brain('', { 'if-none-match': before.etag! })).status === 200, 2000);
        expect((await brain()).text).toContain('Renamed elsewhere');

        // The listening connection dies: nothing cached is trusted, every read asks the database.
        await other.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'memex-brain-revisions' and datname = current_database()`,
        );
        const cached = await brain();
        await other.query(
          `update memory_items set title = 'Renamed while deaf' where project_id = $1 and type = 'Convention'`,
          [ctx.project.projectId],
        );
        await other.query('update projects set memory_revision = memory_revision + 1 where id = $1', [
          ctx.project.projectId,
        ]);
        await waitFor(async () => (await brain('', { 'if-none-match': cached.etag! })).status === 200, 2000);
        expect((await brain()).text).toContain('Renamed while deaf');
      } finally {
        await other.end();
      }
    },
  );

  it('does not answer 304 for a bad key or for another project, whatever the ETag', async () => {
    const current = await brain();
    const bad = await fetch(url('/api/v2/brain'), {
      headers: { authorization: 'Bearer mx_nope', 'if-none-match': current.etag! },
    });
    expect(bad.status).toBe(401);
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('etag-other');
    const theirs = await fetch(url('/api/v2/brain'), {
      headers: { authorization: `Bearer ${other.apiKey}`, 'if-none-match': current.etag! },
    });
    expect(theirs.status).toBe(200);
    expect(await theirs.text()).not.toContain('Name files in kebab-case');
  });

  it('gives the markdown and JSON representations different ETags, and says they vary by Accept', async () => {
    const json = await brain();
    const md = await brain('', { accept: 'text/markdown' });
    expect(md.etag).not.toBe(json.etag);
    const notModified = await fetch(url('/api/v2/brain'), {
      headers: { authorization: `Bearer ${key()}`, accept: 'text/markdown', 'if-none-match': md.etag! },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('vary')).toBe('accept');
    // The JSON tag does not validate the markdown representation.
    expect((await brain('', { accept: 'text/markdown', 'if-none-match': json.etag! })).status).toBe(200);
  });

  itServerOnly(
    'assembles budgets off the 500-token grid exactly, without caching them',
    'reads the cache keys in Redis',
    async () => {
      const odd = JSON.parse((await brain('?tokenBudget=1234')).text) as BrainBody;
      expect(odd.tokenEstimate).toBeLessThanOrEqual(1234);
      const keys = await ctx.server.app
        .get<string, { keys(p: string): Promise<string[]> }>(PRODUCER_REDIS)
        .keys(`${ctx.server.config.QUEUE_PREFIX}:brain:*`);
      expect(keys.some((k) => k.includes('budget-1234'))).toBe(false);
      expect(keys.some((k) => k.includes('budget-6000'))).toBe(true);
    },
  );

  it('serves the CLAUDE.md summary as JSON or markdown', async () => {
    const json = await request<{ document: string; tokenEstimate: number }>(url('/api/v2/brain/summary'), {
      key: key(),
    });
    expect(json.status).toBe(200);
    expect(json.body.document).toContain('## Brief');
    expect(json.body.tokenEstimate).toBeLessThanOrEqual(1000);
    const md = await fetch(url('/api/v2/brain/summary'), {
      headers: { authorization: `Bearer ${key()}`, accept: 'text/markdown' },
    });
    expect(md.headers.get('content-type')).toContain('text/markdown');
    expect(await md.text()).toBe(json.body.document);
  });

  it('refuses summary query parameters it does not take, as the brain does, even on revalidation', async () => {
    const current = await fetch(url('/api/v2/brain/summary'), { headers: { authorization: `Bearer ${key()}` } });
    const etag = current.headers.get('etag')!;
    for (const query of ['?tokenBudget=500', '?format=md', '?tokenBudget=0x1f4']) {
      for (const headers of [{}, { 'if-none-match': etag }] as Array<Record<string, string>>) {
        const res = await fetch(url(`/api/v2/brain/summary${query}`), {
          headers: { authorization: `Bearer ${key()}`, ...headers },
        });
        const body = (await res.json()) as ErrorBody;
        expect({ query, status: res.status, code: body.error.code }).toEqual({
          query,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
    }
    expect(
      (
        await fetch(url('/api/v2/brain/summary'), {
          headers: { authorization: `Bearer ${key()}`, 'if-none-match': etag },
        })
      ).status,
    ).toBe(304);
  });

  it('needs a project key', async () => {
    expect((await request(url('/api/v2/brain'))).status).toBe(401);
  });
});

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
    const archived = await request<{ items: Item[] }>(url('/api/v2/memory-items?status=archived&type=Decision'), {
      key: key(),
    });
    expect(archived.body.items.map((i) => i.status)).toEqual(['archived']);
    expect((await request(url('/api/v2/memory-items?type=Nonsense'), { key: key() })).status).toBe(400);
  });

  it('returns an item with its history, every change recorded with who and why', async () => {
    const todo = await create({ type: 'Todo', title: 'Write the runbook', facts: 'For on-call.' });
    await request(url(`/api/v2/memory-items/${todo.itemId}`), { key: key(), method: 'PATCH', body: { importance: 4 } });
    await request(url(`/api/v2/memory-items/${todo.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { action: 'resolve', reason: 'runbook merged' },
    });
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

    const reopened = await request<Item>(url(`/api/v2/memory-items/${todo.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { action: 'reopen' },
    });
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
    await request(url(`/api/v2/memory-items/${item.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { rationale: `rotated from ${stripe}`, reason: `leaked ${stripe}` },
    });
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
    const approve = await request<ErrorBody>(url(`/api/v2/memory-items/${item.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { action: 'approve' },
    });
    expect(approve.status).toBe(409);
    expect(approve.body.error).toMatchObject({
      code: 'ILLEGAL_STATUS_TRANSITION',
      details: { from: 'active', to: 'active', allowed: ['stale', 'superseded', 'review', 'archived'] },
    });
    const resolve = await request<ErrorBody>(url(`/api/v2/memory-items/${item.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { action: 'resolve' },
    });
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
    const res = await request<Item>(url(`/api/v2/memory-items/${item.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { action: 'approve' },
    });
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
    const patch = await request(url(`/api/v2/memory-items/${theirs.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { title: 'Mine now' },
    });
    expect(patch.status).toBe(404);
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
    const res = await request<ErrorBody>(url(`/api/v2/memory-items/${bug.itemId}`), {
      key: key(),
      method: 'PATCH',
      body: { type: 'Decision', action: 'resolve' },
    });
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
