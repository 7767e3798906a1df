import { BrainApiModule } from '../../apps/brain-api/src';
import { HygieneWorkerModule } from '../../apps/hygiene-worker/src';
import { HygieneReviewRepository, ProjectRepository } from '@memex/db';
import { request, type ErrorBody } from '../support/http';
import { insertItem, itemStatus, revisionOf } from '../support/items';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { waitFor } from '../support/wait';

const ctx = useTestApp([BrainApiModule, HygieneWorkerModule], { env: { HYGIENE_INTERVAL_MS: '0' } });

type Item = {
  itemId: string;
  title: string;
  status: string;
  tags: string[];
  files: string[];
  supersededBy: string | null;
  sessionId: string;
};
type Page = { items: Item[]; nextCursor: string | null };
type History = { change: string; actor: string; reason: string | null }[];

const url = (path: string) => `${ctx.server.url}${path}`;
const key = () => ctx.project.apiKey;
const db = () => ctx.database.db;

async function create(body: Record<string, unknown>): Promise<Item> {
  const res = await request<Item>(url('/api/v2/memory-items'), { key: key(), body });
  expect(res.status).toBe(201);
  return res.body;
}

const patch = (id: string, body: Record<string, unknown>, k = key()) =>
  request<Item & ErrorBody>(url(`/api/v2/memory-items/${id}`), { key: k, method: 'PATCH', body });

const list = (query: string) => request<Page & ErrorBody>(url(`/api/v2/memory-items?${query}`), { key: key() });

const brainText = async () =>
  (
    await fetch(url('/api/v2/brain'), { headers: { authorization: `Bearer ${key()}`, accept: 'text/markdown' } })
  ).text();

describe('item list filters', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.tagged = (await create({ type: 'Convention', title: 'Tagged one', facts: 'x', tags: ['auth', 'api'] })).itemId;
    ids.filed = (
      await create({ type: 'ImplementationFact', title: 'Filed one', facts: 'y', files: ['src/api/Client.ts'] })
    ).itemId;
    ids.old = await insertItem(db(), ctx.project.projectId, { title: 'Old one', updatedDaysAgo: 40 });
  });

  it('filters by tag, by a part of a file path (any case), by session and by age', async () => {
    expect((await list('tag=auth')).body.items.map((i) => i.itemId)).toEqual([ids.tagged]);
    expect((await list('tag=aut')).body.items).toEqual([]);
    expect((await list('file=api%2Fclient')).body.items.map((i) => i.itemId)).toEqual([ids.filed]);
    expect((await list('file=100%25')).body.items).toEqual([]);
    const manual = (await list('sessionId=manual')).body.items.map((i) => i.itemId);
    expect(manual.sort()).toEqual([ids.tagged, ids.filed].sort());
    expect((await list('sessionId=01KAAAAAAAAAAAAAAAAAAAAAAA')).body.items).toEqual([]);
    const cutoff = new Date(Date.now() - 30 * 86_400_000).toISOString();
    expect((await list(`updatedBefore=${cutoff}`)).body.items.map((i) => i.itemId)).toEqual([ids.old]);
    const recent = (await list(`updatedAfter=${cutoff}`)).body.items.map((i) => i.itemId);
    expect(recent).toEqual(expect.arrayContaining([ids.tagged, ids.filed]));
    expect(recent).not.toContain(ids.old);
  });

  it('refuses bad filters with 400 naming the parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['tag=Not%20A%20Tag', /^tag/],
      ['file=', /^file/],
      ['sessionId=some-session', /^sessionId/],
      ['updatedAfter=yesterday', /^updatedAfter/],
      ['updatedAfter=2026-02-30T00:00:00Z', /^updatedAfter/],
      ['updatedAfter=2026-11-02T00:00:00Z&updatedBefore=2026-11-01T00:00:00Z', /^updatedBefore: must be later/],
      ['label=x', /label/],
    ];
    for (const [query, message] of cases) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.message).toMatch(message);
    }
  });
});

describe('restore', () => {
  it('takes an archived item back to active, clears what replaced it, and the brain shows it again', async () => {
    const kept = await create({ type: 'Decision', title: 'Kept decision', facts: 'a', rationale: 'r' });
    const id = await insertItem(db(), ctx.project.projectId, {
      type: 'Decision',
      title: 'Restorable decision about caching',
      status: 'archived',
      supersededBy: kept.itemId,
    });
    expect(await brainText()).not.toContain('Restorable decision');
    const before = await revisionOf(db(), ctx.project.projectId);
    const res = await patch(id, { action: 'restore', reason: 'still how we cache' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', supersededBy: null });
    expect(await revisionOf(db(), ctx.project.projectId)).toBe(before + 1);
    expect(await brainText()).toContain('Restorable decision about caching');
    const { body } = await request<{ history: History }>(url(`/api/v2/memory-items/${id}`), { key: key() });
    expect(body.history.at(-1)).toMatchObject({ change: 'restore', actor: 'api', reason: 'still how we cache' });
  });

  it('refuses to restore an item that is not archived, and to approve an archived one', async () => {
    const active = await create({ type: 'Convention', title: 'Live', facts: 'x' });
    const refused = await patch(active.itemId, { action: 'restore' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'ILLEGAL_STATUS_TRANSITION',
      details: { from: 'active', allowedFrom: ['archived'] },
    });
    const archived = await insertItem(db(), ctx.project.projectId, { status: 'archived' });
    expect((await patch(archived, { action: 'approve' })).status).toBe(409);
    expect(await itemStatus(db(), archived)).toBe('archived');
  });

  it('restores in bulk, all or none', async () => {
    const a = await insertItem(db(), ctx.project.projectId, { status: 'archived' });
    const b = await insertItem(db(), ctx.project.projectId, { status: 'archived' });
    const live = await insertItem(db(), ctx.project.projectId, { status: 'active' });
    const refused = await request<ErrorBody>(url('/api/v2/memory-items/bulk'), {
      key: key(),
      body: { ids: [a, b, live], action: 'restore' },
    });
    expect(refused.status).toBe(409);
    expect([await itemStatus(db(), a), await itemStatus(db(), b)]).toEqual(['archived', 'archived']);
    const done = await request<{ updated: number }>(url('/api/v2/memory-items/bulk'), {
      key: key(),
      body: { ids: [a, b], action: 'restore' },
    });
    expect(done.body.updated).toBe(2);
    expect([await itemStatus(db(), a), await itemStatus(db(), b)]).toEqual(['active', 'active']);
  });

  it('keeps the archiving rules off a restored item until it changes again', async () => {
    const weak = await insertItem(db(), ctx.project.projectId, {
      status: 'archived',
      confidence: 0.2,
      createdDaysAgo: 30,
    });
    const held = () =>
      ctx.database.db
        .transaction()
        .execute((trx) => ctx.server.app.get(HygieneReviewRepository).heldRules(trx, ctx.project.projectId));
    expect((await patch(weak, { action: 'restore' })).status).toBe(200);
    expect((await held()).has(`${weak}:archive-low-confidence`)).toBe(true);

    // A pass leaves it active...
    const run = await request<{ runId: string }>(url('/api/v2/hygiene/runs'), { key: key(), body: { mode: 'apply' } });
    await waitFor(async () => {
      const r = await request<{ status: string }>(url(`/api/v2/hygiene/runs/${run.body.runId}`), { key: key() });
      return r.body.status === 'completed';
    });
    expect(await itemStatus(db(), weak)).toBe('active');
    // ...until an edit: then the rule judges it again.
    expect((await patch(weak, { title: 'Edited after restore' })).status).toBe(200);
    expect((await held()).has(`${weak}:archive-low-confidence`)).toBe(false);
  });
});

describe('delete', () => {
  it('removes the item and its history for good, bumps the revision, and the brain no longer shows it', async () => {
    const item = await create({ type: 'Decision', title: 'Secret-ish decision to delete', facts: 'f', rationale: 'r' });
    await patch(item.itemId, { title: 'Secret-ish decision to delete, edited' });
    expect(await brainText()).toContain('Secret-ish decision to delete');
    const before = await revisionOf(db(), ctx.project.projectId);

    const res = await request<{ itemId: string; deleted: boolean }>(url(`/api/v2/memory-items/${item.itemId}`), {
      key: key(),
      method: 'DELETE',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ itemId: item.itemId, deleted: true, unlinked: [], expiredProposals: 0 });
    expect(await revisionOf(db(), ctx.project.projectId)).toBe(before + 1);
    expect(await brainText()).not.toContain('Secret-ish decision');
    const gone = await request<ErrorBody>(url(`/api/v2/memory-items/${item.itemId}`), { key: key() });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ITEM_NOT_FOUND');
    const history = await db().selectFrom('item_history').select('id').where('item_id', '=', item.itemId).execute();
    expect(history).toEqual([]);
    const again = await request<ErrorBody>(url(`/api/v2/memory-items/${item.itemId}`), {
      key: key(),
      method: 'DELETE',
    });
    expect(again.status).toBe(404);
  });

  it('unlinks the items it replaced (with a history entry each) and expires pending proposals naming it', async () => {
    const p = ctx.project.projectId;
    const replacement = await insertItem(db(), p, { type: 'Todo', title: 'Retry todo A', dedupHint: 'todo:retries:a' });
    const replaced = await insertItem(db(), p, {
      type: 'Todo',
      title: 'Retry todo old',
      status: 'superseded',
      supersededBy: replacement,
    });
    const twin = await insertItem(db(), p, { type: 'Todo', title: 'Retry todo B', dedupHint: 'todo:retries:b' });
    const run = await request<{ runId: string }>(url('/api/v2/hygiene/runs'), {
      key: key(),
      body: { mode: 'dry-run' },
    });
    await waitFor(async () => {
      const r = await request<{ status: string }>(url(`/api/v2/hygiene/runs/${run.body.runId}`), { key: key() });
      return r.body.status === 'completed';
    });
    const pending = await request<{ proposals: Array<{ proposalId: string; itemIds: string[] }> }>(
      url('/api/v2/hygiene/proposals'),
      { key: key() },
    );
    const merge = pending.body.proposals.find((x) => x.itemIds.includes(replacement) && x.itemIds.includes(twin));
    expect(merge).toBeDefined();

    const res = await request<{ unlinked: string[]; expiredProposals: number }>(
      url(`/api/v2/memory-items/${replacement}`),
      { key: key(), method: 'DELETE' },
    );
    expect(res.status).toBe(200);
    expect(res.body.unlinked).toEqual([replaced]);
    expect(res.body.expiredProposals).toBeGreaterThanOrEqual(1);
    const left = await request<{ item: Item; history: History }>(url(`/api/v2/memory-items/${replaced}`), {
      key: key(),
    });
    expect(left.body.item).toMatchObject({ status: 'superseded', supersededBy: null });
    expect(left.body.history.at(-1)).toMatchObject({ change: 'unlinked', actor: 'api' });
    expect(left.body.history.at(-1)!.reason).toContain(replacement);
    const apply = await request<ErrorBody>(url(`/api/v2/hygiene/proposals/${merge!.proposalId}/apply`), {
      key: key(),
      body: {},
    });
    expect(apply.status).toBe(409);
    expect(apply.body.error.code).toBe('PROPOSAL_OUTDATED');
  });

  it("never deletes another project's item (404), and refuses a malformed id (400)", async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    const theirs = await insertItem(db(), other.projectId, { title: 'Theirs' });
    const res = await request<ErrorBody>(url(`/api/v2/memory-items/${theirs}`), { key: key(), method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await itemStatus(db(), theirs)).toBe('active');
    expect((await request(url('/api/v2/memory-items/not-an-id'), { key: key(), method: 'DELETE' })).status).toBe(400);
    expect((await request(url(`/api/v2/memory-items/${theirs}`), { method: 'DELETE' })).status).toBe(401);
  });
});

describe('hygiene lists', () => {
  it('lists applied changes newest first, operators’ reverts among them, and pending proposals with their items', async () => {
    const p = ctx.project.projectId;
    const old = await insertItem(db(), p, { type: 'ImplementationFact', title: 'Aged fact', updatedDaysAgo: 45 });
    const run = await request<{ runId: string }>(url('/api/v2/hygiene/runs'), { key: key(), body: { mode: 'apply' } });
    await waitFor(async () => {
      const r = await request<{ status: string }>(url(`/api/v2/hygiene/runs/${run.body.runId}`), { key: key() });
      return r.body.status === 'completed';
    });
    type Change = { changeId: string; itemId: string; rule: string; title: string; revertedAt: string | null };
    const changes = await request<{ changes: Change[]; nextCursor: string | null }>(
      url('/api/v2/hygiene/changes?limit=200'),
      { key: key() },
    );
    expect(changes.status).toBe(200);
    const stale = changes.body.changes.find((c) => c.itemId === old)!;
    expect(stale).toMatchObject({ rule: 'stale-by-age', title: 'Aged fact', revertedAt: null });
    const revert = await request(url(`/api/v2/hygiene/changes/${stale.changeId}/revert`), { key: key(), body: {} });
    expect(revert.status).toBe(200);
    const after = await request<{ changes: Change[] }>(url('/api/v2/hygiene/changes?limit=1'), { key: key() });
    expect(after.body.changes[0]).toMatchObject({ itemId: old, rule: 'stale-by-age' });
    expect(after.body.changes[0]!.changeId > stale.changeId).toBe(true);

    const proposals = await request<{
      proposals: Array<{ status: string; items: Array<{ itemId: string; title: string; facts: string }> }>;
    }>(url('/api/v2/hygiene/proposals'), { key: key() });
    expect(proposals.status).toBe(200);
    for (const proposal of proposals.body.proposals) {
      expect(proposal.status).toBe('pending');
      expect(proposal.items.length).toBeGreaterThan(0);
      expect(proposal.items[0]).toEqual(
        expect.objectContaining({ title: expect.any(String), facts: expect.any(String) }),
      );
    }
  });

  it('pages with a cursor, takes the admin token with a projectId, and keeps keys to their own project', async () => {
    const first = await request<{ changes: Array<{ changeId: string }>; nextCursor: string }>(
      url('/api/v2/hygiene/changes?limit=1'),
      { key: key() },
    );
    expect(first.body.nextCursor).toBe(first.body.changes[0]!.changeId);
    const second = await request<{ changes: Array<{ changeId: string }> }>(
      url(`/api/v2/hygiene/changes?limit=1&cursor=${first.body.nextCursor}`),
      { key: key() },
    );
    expect(second.body.changes[0]!.changeId < first.body.nextCursor).toBe(true);

    const admin = await request<{ changes: unknown[] }>(
      url(`/api/v2/hygiene/changes?projectId=${ctx.project.projectId}`),
      { key: ADMIN_TOKEN },
    );
    expect(admin.status).toBe(200);
    expect(admin.body.changes.length).toBeGreaterThan(0);
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('elsewhere');
    const forbidden = await request<ErrorBody>(url(`/api/v2/hygiene/proposals?projectId=${other.projectId}`), {
      key: key(),
    });
    expect(forbidden.status).toBe(403);
    const empty = await request<{ proposals: unknown[] }>(url('/api/v2/hygiene/proposals'), { key: other.apiKey });
    expect(empty.body.proposals).toEqual([]);
    for (const bad of ['status=open', 'limit=0', 'cursor=zzz', 'kind=merge']) {
      expect((await request(url(`/api/v2/hygiene/proposals?${bad}`), { key: key() })).status).toBe(400);
    }
    expect((await request(url('/api/v2/hygiene/changes'))).status).toBe(401);
  });
});
