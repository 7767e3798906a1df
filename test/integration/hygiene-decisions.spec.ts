import { BrainApiModule } from '../../apps/brain-api/src';
import { HygieneWorkerModule } from '../../apps/hygiene-worker/src';
import { HygieneRunRepository } from '@memex/db';
import { runRules } from '@memex/hygiene';
import { request, type ErrorBody } from '../support/http';
import { insertItem, itemStatus } from '../support/items';
import { useTestApp } from '../support/use-test-app';
import { changeOf, hygieneRuns, type Proposal } from '../support/hygiene-runs';

const ctx = useTestApp([BrainApiModule, HygieneWorkerModule], {
  env: { HYGIENE_INTERVAL_MS: '0', HYGIENE_CONCURRENCY: '2' },
});
const { url, db, startRun, finished } = hygieneRuns(ctx);

describe('hygiene decisions that last, and passes that never overlap', () => {
  it('a rejected proposal is not proposed again', async () => {
    const p = ctx.project.projectId;
    const one = { type: 'Todo', title: 'Add retries to the webhook sender', facts: 'Webhook sender needs retries.' };
    const a = await insertItem(db(), p, one);
    const b = await insertItem(db(), p, one);
    const run = await finished(await startRun('dry-run'));
    const merge = run.proposals.find((x) => x.kind === 'merge' && x.itemIds.includes(a))!;
    expect(merge.itemIds).toEqual([a, b].sort());
    const res = await request<{ proposal: Proposal }>(url(`/api/v2/hygiene/proposals/${merge.proposalId}/reject`), {
      key: ctx.project.apiKey,
      body: { reason: 'different webhooks' },
    });
    expect(res.status).toBe(200);
    expect(res.body.proposal.status).toBe('rejected');
    const later = await finished(await startRun('dry-run'));
    expect(later.proposals.find((x) => x.itemIds.includes(a))).toBeUndefined();
    const again = await request<ErrorBody>(url(`/api/v2/hygiene/proposals/${merge.proposalId}/apply`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(again.status).toBe(409);
  });

  it('an item an operator approved out of review stays active, until it changes', async () => {
    const p = ctx.project.projectId;
    const hint = 'convention:naming:test-files';
    const a = await insertItem(db(), p, { type: 'Convention', dedupHint: hint, facts: 'Test files end in .spec.ts.' });
    const b = await insertItem(db(), p, {
      type: 'Convention',
      dedupHint: hint,
      facts: 'Unit tests live under __tests__ folders beside the code.',
    });
    const first = await finished(await startRun('apply'));
    expect(changeOf(first, a)).toMatchObject({ rule: 'conflicting-facts', to: 'review' });
    expect(await itemStatus(db(), b)).toBe('review');
    // Both hold (different kinds of test): approved, both are live again, and still disagree.
    for (const id of [a, b]) {
      const approve = await request(url(`/api/v2/memory-items/${id}`), {
        method: 'PATCH',
        key: ctx.project.apiKey,
        body: { action: 'approve', reason: 'both hold: different kinds of test' },
      });
      expect(approve.status).toBe(200);
    }
    const next = await finished(await startRun('apply'));
    expect([changeOf(next, a), changeOf(next, b)]).toEqual([undefined, undefined]);
    expect([await itemStatus(db(), a), await itemStatus(db(), b)]).toEqual(['active', 'active']);

    // Once what it says changes, the conflict is judged afresh.
    const edit = await request(url(`/api/v2/memory-items/${a}`), {
      method: 'PATCH',
      key: ctx.project.apiKey,
      body: { facts: 'Test files end in .test.ts from now on.' },
    });
    expect(edit.status).toBe(200);
    const later = await finished(await startRun('apply'));
    expect(changeOf(later, a)).toMatchObject({ rule: 'conflicting-facts', to: 'review' });
    expect(changeOf(later, b)).toBeUndefined();
  });

  it('never runs two passes of one project at once', async () => {
    const [a, b, c] = [await startRun('dry-run'), await startRun('apply'), await startRun('dry-run')];
    const runs = await Promise.all([finished(a), finished(b), finished(c)]);
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    const spans = runs
      .map((r) => [Date.parse(r.startedAt), Date.parse(r.finishedAt)] as const)
      .sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  });

  it('skips a move when the item changed between the read and the write', async () => {
    const p = ctx.project.projectId;
    const id = await insertItem(db(), p, { updatedDaysAgo: 50 });
    const runs = ctx.server.app.get(HygieneRunRepository);
    const run = await runs.create({ projectId: p, mode: 'apply', trigger: 'operator', requestedBy: 'test' });
    const items = await db()
      .transaction()
      .execute((trx) => runs.items(trx, p));
    const found = runRules(items, Date.now());
    expect(found.transitions.some((t) => t.itemId === id)).toBe(true);
    // Enrichment reinforces the item after the pass read it.
    await db()
      .updateTable('memory_items')
      .set({ updated_at: new Date(), last_reinforced_at: new Date() })
      .where('id', '=', id)
      .execute();
    const result = await runs.withPassLock(p, (trx, open) =>
      runs.recordPass(
        trx,
        open,
        { id: run.id, projectId: p, mode: 'apply' },
        { items, transitions: found.transitions, proposals: [] },
      ),
    );
    expect(result.busy).toBe(false);
    if (!result.busy) {
      expect(result.value.skipped).toBeGreaterThanOrEqual(1);
      expect(result.value.applied.some((t) => t.itemId === id)).toBe(false);
    }
    expect(await itemStatus(db(), id)).toBe('active');
  });

  it('an edit with nothing left to fix settles the proposal without writing', async () => {
    const weak = await insertItem(db(), ctx.project.projectId, { evidence: 0, confidence: 0.3, createdDaysAgo: 1 });
    const run = await finished(await startRun('dry-run'));
    const edit = run.proposals.find((p) => p.kind === 'edit' && p.itemIds[0] === weak)!;
    expect(edit.detail.problems).toEqual([{ code: 'no-evidence' }]);
    const res = await request<{ changeIds: string[]; proposal: Proposal }>(
      url(`/api/v2/hygiene/proposals/${edit.proposalId}/apply`),
      { key: ctx.project.apiKey, body: {} },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ changeIds: [], proposal: { status: 'applied' } });
  });
});
