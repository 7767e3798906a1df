import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrainApiModule } from '../../apps/brain-api/src';
import { HygieneWorkerModule } from '../../apps/hygiene-worker/src';
import { HygieneRunRepository, ProjectRepository } from '@memex/db';
import { runRules } from '@memex/hygiene';
import { request, type ErrorBody } from '../support/http';
import { insertItem, itemStatus, revisionOf } from '../support/items';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';
import { itServerOnly } from '../support/mode';
import { waitFor } from '../support/wait';

const ctx = useTestApp([BrainApiModule, HygieneWorkerModule], {
  env: { HYGIENE_INTERVAL_MS: '0', HYGIENE_CONCURRENCY: '2' },
});

type Change = {
  changeId: string;
  itemId: string;
  rule: string;
  from: string;
  to: string;
  applied: boolean;
  reason: string;
  revertedAt: string | null;
};
type Proposal = {
  proposalId: string;
  kind: string;
  rule: string;
  itemIds: string[];
  status: string;
  detail: Record<string, unknown>;
};
type Run = {
  runId: string;
  status: string;
  mode: string;
  counts: Record<string, number>;
  itemsScanned: number;
  startedAt: string;
  finishedAt: string;
  changes: Change[];
  proposals: Proposal[];
  nextChangesAfter: string | null;
};

const url = (path: string) => `${ctx.server.url}${path}`;
const db = () => ctx.database.db;

async function startRun(mode: string, key = ctx.project.apiKey, projectId?: string): Promise<string> {
  const res = await request<{ runId: string; status: string }>(url('/api/v2/hygiene/runs'), {
    key,
    body: { mode, ...(projectId ? { projectId } : {}) },
  });
  expect(res.status).toBe(202);
  expect(res.body.status).toBe('queued');
  return res.body.runId;
}

async function finished(runId: string, key = ctx.project.apiKey, query = ''): Promise<Run> {
  let run: Run | undefined;
  await waitFor(async () => {
    const res = await request<Run>(url(`/api/v2/hygiene/runs/${runId}${query}`), { key });
    expect(res.status).toBe(200);
    run = res.body;
    return run.status === 'completed' || run.status === 'failed';
  });
  return run!;
}

const changeOf = (run: Run, itemId: string) => run.changes.find((c) => c.itemId === itemId);

describe('hygiene passes', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const p = ctx.project.projectId;
    ids.oldFact = await insertItem(db(), p, { updatedDaysAgo: 31 });
    ids.freshFact = await insertItem(db(), p, { updatedDaysAgo: 29 });
    ids.codeMap = await insertItem(db(), p, { type: 'CodeMapNode' });
    ids.longSuperseded = await insertItem(db(), p, { status: 'superseded', statusChangedDaysAgo: 31 });
    ids.recentSuperseded = await insertItem(db(), p, { status: 'superseded', statusChangedDaysAgo: 29 });
    ids.replaced = await insertItem(db(), p, { supersededBy: ids.freshFact });
    ids.doubtful = await insertItem(db(), p, { confidence: 0.3, createdDaysAgo: 20, updatedDaysAgo: 1 });
    ids.reinforced = await insertItem(db(), p, {
      status: 'stale',
      updatedDaysAgo: 40,
      statusChangedDaysAgo: 10,
      reinforcedDaysAgo: 2,
    });
    ids.oldDecision = await insertItem(db(), p, { type: 'Decision', updatedDaysAgo: 400 });
    const twin = {
      type: 'Decision',
      title: 'Use PostgreSQL advisory locks to serialise enrichment writes',
      facts: 'Enrichment takes a per-project advisory lock before writing items, so two workers never race.',
    };
    ids.twinA = await insertItem(db(), p, { ...twin, confidence: 0.9 });
    ids.twinB = await insertItem(db(), p, { ...twin, confidence: 0.7 });
    ids.noRationale = await insertItem(db(), p, { type: 'Decision', rationale: null, title: 'Ship on Fridays' });
    ids.conflictA = await insertItem(db(), p, {
      type: 'Convention',
      dedupHint: 'convention:style:arrow-braces',
      facts: 'Void arrow functions must have braces around their body.',
    });
    ids.conflictB = await insertItem(db(), p, {
      type: 'Convention',
      dedupHint: 'convention:style:arrow-braces',
      facts: 'Never wrap single expressions in braces; prettier decides layout of the codebase.',
    });
  });

  let dryRun: Run;

  it('a dry run reports every lifecycle move and changes nothing', async () => {
    const before = await revisionOf(db(), ctx.project.projectId);
    dryRun = await finished(await startRun('dry-run'));
    expect(dryRun.status).toBe('completed');
    expect(dryRun.mode).toBe('dry-run');
    const expected: Array<[string, string, string, string]> = [
      ['oldFact', 'stale-by-age', 'active', 'stale'],
      ['codeMap', 'archive-code-map', 'active', 'archived'],
      ['longSuperseded', 'archive-superseded', 'superseded', 'archived'],
      ['replaced', 'supersede-replaced', 'active', 'superseded'],
      ['doubtful', 'archive-low-confidence', 'active', 'archived'],
      ['reinforced', 'reactivate-reinforced', 'stale', 'active'],
      ['conflictA', 'conflicting-facts', 'active', 'review'],
      ['conflictB', 'conflicting-facts', 'active', 'review'],
    ];
    for (const [name, rule, from, to] of expected) {
      expect({ name, ...changeOf(dryRun, ids[name]!) }).toMatchObject({ name, rule, from, to, applied: false });
    }
    // Both sides of the boundaries: these stay as they are.
    for (const name of ['freshFact', 'recentSuperseded', 'oldDecision', 'twinA', 'twinB', 'noRationale']) {
      expect({ name, change: changeOf(dryRun, ids[name]!) }).toEqual({ name, change: undefined });
    }
    expect(dryRun.changes).toHaveLength(expected.length);
    expect(dryRun.counts).toMatchObject({ 'stale-by-age': 1, 'conflicting-facts': 2, skipped: 0 });
    expect(await itemStatus(db(), ids.oldFact!)).toBe('active');
    expect(await itemStatus(db(), ids.codeMap!)).toBe('active');
    expect(await revisionOf(db(), ctx.project.projectId)).toBe(before);
    const history = await db().selectFrom('item_history').selectAll().where('actor_type', '=', 'rule').execute();
    expect(history).toHaveLength(0);
  });

  it('a dry run proposes the merge of near-duplicates and the edit of a Decision without rationale', () => {
    const merge = dryRun.proposals.find((p) => p.kind === 'merge');
    expect(merge).toMatchObject({ rule: 'near-duplicate', status: 'pending' });
    expect(merge!.itemIds).toEqual([ids.twinA, ids.twinB].sort());
    expect(merge!.detail.keepId).toBe(ids.twinA);
    const edit = dryRun.proposals.find((p) => p.kind === 'edit' && p.itemIds[0] === ids.noRationale);
    expect(edit).toMatchObject({ rule: 'quality' });
    expect(edit!.detail.problems).toEqual([{ code: 'decision-without-rationale' }]);
  });

  it('a dry-run change cannot be reverted: it was never made', async () => {
    const res = await request<ErrorBody>(url(`/api/v2/hygiene/changes/${dryRun.changes[0]!.changeId}/revert`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CHANGE_NOT_REVERTIBLE');
  });

  let applied: Run;

  it('an apply run makes the moves, each an item-history entry naming its rule and run', async () => {
    const before = await revisionOf(db(), ctx.project.projectId);
    applied = await finished(await startRun('apply'));
    expect(applied.status).toBe('completed');
    expect(applied.changes.every((c) => c.applied)).toBe(true);
    expect(applied.changes).toHaveLength(dryRun.changes.length);
    expect(await itemStatus(db(), ids.oldFact!)).toBe('stale');
    expect(await itemStatus(db(), ids.codeMap!)).toBe('archived');
    expect(await itemStatus(db(), ids.reinforced!)).toBe('active');
    expect(await itemStatus(db(), ids.conflictA!)).toBe('review');
    expect(await itemStatus(db(), ids.freshFact!)).toBe('active');
    expect(await revisionOf(db(), ctx.project.projectId)).toBe(before + 1);
    const entry = await db()
      .selectFrom('item_history')
      .selectAll()
      .where('item_id', '=', ids.oldFact!)
      .where('actor_type', '=', 'rule')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor: 'stale-by-age', run_id: applied.runId, change: 'status' });
    // The whole item before and after, as every writer records it.
    expect(entry.before).toMatchObject({ id: ids.oldFact, status: 'active' });
    expect(entry.after).toMatchObject({
      id: ids.oldFact,
      status: 'stale',
      title: (entry.before as { title: string }).title,
    });
    expect(Object.keys(entry.after as object).sort()).toEqual(Object.keys(entry.before as object).sort());
    expect(entry.after).not.toHaveProperty('project_id');
    // Status moves are not edits: the item's last update stays what it was.
    const row = await db()
      .selectFrom('memory_items')
      .select(['updated_at', 'status_changed_at'])
      .where('id', '=', ids.oldFact!)
      .executeTakeFirstOrThrow();
    expect(Date.now() - row.updated_at.getTime()).toBeGreaterThan(30 * 86_400_000);
    expect(Date.now() - row.status_changed_at.getTime()).toBeLessThan(60_000);
  });

  it('the same proposals found again are the same proposals, not copies', () => {
    const ids1 = dryRun.proposals.map((p) => p.proposalId).sort();
    const ids2 = applied.proposals.map((p) => p.proposalId).sort();
    expect(ids2).toEqual(ids1);
    // Counted in each run that found them, not only the first.
    expect(applied.counts).toMatchObject({ 'near-duplicate': 1, quality: 1 });
    expect(dryRun.counts).toMatchObject({ 'near-duplicate': 1, quality: 1 });
  });

  it('reverting a change puts the item back, once, and later passes leave it be', async () => {
    const change = changeOf(applied, ids.oldFact!)!;
    const res = await request<{ changeId: string }>(url(`/api/v2/hygiene/changes/${change.changeId}/revert`), {
      key: ctx.project.apiKey,
      body: { reason: 'still true' },
    });
    expect(res.status).toBe(200);
    expect(await itemStatus(db(), ids.oldFact!)).toBe('active');
    const history = await db()
      .selectFrom('item_history')
      .selectAll()
      .where('item_id', '=', ids.oldFact!)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(history).toMatchObject({
      change: 'reverted',
      actor_type: 'operator',
      reason: `revert of hygiene change ${change.changeId} (stale-by-age): still true`,
    });

    const again = await request<ErrorBody>(url(`/api/v2/hygiene/changes/${change.changeId}/revert`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CHANGE_NOT_REVERTIBLE');

    const next = await finished(await startRun('apply'));
    expect(changeOf(next, ids.oldFact!)).toBeUndefined();
    expect(await itemStatus(db(), ids.oldFact!)).toBe('active');
  });

  it('a revert never undoes a later change of the item', async () => {
    const change = changeOf(applied, ids.conflictB!)!;
    await db().updateTable('memory_items').set({ status: 'active' }).where('id', '=', ids.conflictB!).execute();
    await db().updateTable('memory_items').set({ status: 'archived' }).where('id', '=', ids.conflictB!).execute();
    const res = await request<ErrorBody>(url(`/api/v2/hygiene/changes/${change.changeId}/revert`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ITEM_CHANGED_SINCE');
    expect(res.body.error.details.fields).toContain('status');
    expect(await itemStatus(db(), ids.conflictB!)).toBe('archived');
  });

  it('nor one that moved the item away and back to the same status', async () => {
    const change = changeOf(applied, ids.codeMap!)!;
    expect(change.to).toBe('archived');
    // Reopened by hand and archived again: the status equals what the change left, but it is a later move.
    await db().updateTable('memory_items').set({ status: 'active' }).where('id', '=', ids.codeMap!).execute();
    await db().updateTable('memory_items').set({ status: 'archived' }).where('id', '=', ids.codeMap!).execute();
    const res = await request<ErrorBody>(url(`/api/v2/hygiene/changes/${change.changeId}/revert`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'ITEM_CHANGED_SINCE', details: { fields: ['status_changed_at'] } });
  });

  it('applying a merge keeps one item and supersedes the others; it can be applied once', async () => {
    const merge = applied.proposals.find((p) => p.kind === 'merge')!;
    const before = await revisionOf(db(), ctx.project.projectId);
    const res = await request<{ proposal: Proposal; changeIds: string[] }>(
      url(`/api/v2/hygiene/proposals/${merge.proposalId}/apply`),
      { key: ctx.project.apiKey, body: {} },
    );
    expect(res.status).toBe(200);
    expect(res.body.proposal.status).toBe('applied');
    expect(res.body.changeIds).toHaveLength(2);
    const rows = await db()
      .selectFrom('memory_items')
      .select(['id', 'status', 'superseded_by', 'merged_from', 'evidence_refs'])
      .where('id', 'in', [ids.twinA!, ids.twinB!])
      .execute();
    const keep = rows.find((r) => r.id === ids.twinA)!;
    const gone = rows.find((r) => r.id === ids.twinB)!;
    expect(keep.status).toBe('active');
    expect(keep.merged_from).toContain(ids.twinB);
    expect(keep.evidence_refs).toHaveLength(2);
    expect(gone).toMatchObject({ status: 'superseded', superseded_by: ids.twinA });
    expect(await revisionOf(db(), ctx.project.projectId)).toBe(before + 1);

    const twice = await request<ErrorBody>(url(`/api/v2/hygiene/proposals/${merge.proposalId}/apply`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('PROPOSAL_DECIDED');

    const history = await db()
      .selectFrom('item_history')
      .select('reason')
      .where('item_id', '=', ids.twinB!)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(history.reason).toBe('hygiene near-duplicate');

    // The merge goes back whole: reverting the absorbed item's change also restores the kept one.
    const undo = await request<{ changeId: string; changeIds: string[] }>(
      url(`/api/v2/hygiene/changes/${res.body.changeIds[1]}/revert`),
      { key: ctx.project.apiKey, body: {} },
    );
    expect(undo.status).toBe(200);
    expect(undo.body.changeIds).toHaveLength(2);
    expect(undo.body.changeIds[0]).toBe(undo.body.changeId);
    const after = await db()
      .selectFrom('memory_items')
      .select(['id', 'status', 'superseded_by', 'merged_from', 'evidence_refs'])
      .where('id', 'in', [ids.twinA!, ids.twinB!])
      .execute();
    expect(after.find((r) => r.id === ids.twinA)).toMatchObject({ status: 'active', merged_from: [] });
    expect(after.find((r) => r.id === ids.twinA)!.evidence_refs).toHaveLength(1);
    expect(after.find((r) => r.id === ids.twinB)).toMatchObject({ status: 'active', superseded_by: null });
    const other = await request<ErrorBody>(url(`/api/v2/hygiene/changes/${res.body.changeIds[0]}/revert`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('CHANGE_NOT_REVERTIBLE');

    // Undoing the undo redoes the whole merge, never half of it.
    const redo = await request<{ changeIds: string[] }>(
      url(`/api/v2/hygiene/changes/${undo.body.changeIds[0]}/revert`),
      { key: ctx.project.apiKey, body: {} },
    );
    expect(redo.status).toBe(200);
    expect(redo.body.changeIds).toHaveLength(2);
    const again = await db()
      .selectFrom('memory_items')
      .select(['id', 'status', 'superseded_by', 'merged_from'])
      .where('id', 'in', [ids.twinA!, ids.twinB!])
      .execute();
    expect(again.find((r) => r.id === ids.twinA)).toMatchObject({ status: 'active', merged_from: [ids.twinB] });
    expect(again.find((r) => r.id === ids.twinB)).toMatchObject({ status: 'superseded', superseded_by: ids.twinA });
  });

  it('a merge whose kept item changed since does not go back in part', async () => {
    const p = ctx.project.projectId;
    const twin = { type: 'Todo', title: 'Rotate the staging database password', facts: 'Rotate it every quarter.' };
    const keep = await insertItem(db(), p, { ...twin, confidence: 0.9 });
    const gone = await insertItem(db(), p, { ...twin, confidence: 0.6 });
    const run = await finished(await startRun('dry-run'));
    const merge = run.proposals.find((x) => x.kind === 'merge' && x.itemIds.includes(keep))!;
    const res = await request<{ changeIds: string[] }>(url(`/api/v2/hygiene/proposals/${merge.proposalId}/apply`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(res.status).toBe(200);
    await db()
      .updateTable('memory_items')
      .set({ tags: ['ops'] })
      .where('id', '=', keep)
      .execute();
    const undo = await request<ErrorBody>(url(`/api/v2/hygiene/changes/${res.body.changeIds[1]}/revert`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(undo.status).toBe(409);
    expect(undo.body.error).toMatchObject({ code: 'ITEM_CHANGED_SINCE', details: { itemId: keep, fields: ['tags'] } });
    expect(await itemStatus(db(), gone)).toBe('superseded');
  });

  it('an edit that needs a rationale asks for it, then applies it', async () => {
    const edit = applied.proposals.find((p) => p.kind === 'edit' && p.itemIds[0] === ids.noRationale)!;
    const bare = await request<ErrorBody>(url(`/api/v2/hygiene/proposals/${edit.proposalId}/apply`), {
      key: ctx.project.apiKey,
      body: {},
    });
    expect(bare.status).toBe(422);
    expect(bare.body.error).toMatchObject({ code: 'INPUT_REQUIRED', details: { required: ['patch.rationale'] } });
    const merged = await request<ErrorBody>(url(`/api/v2/hygiene/proposals/${edit.proposalId}/apply`), {
      key: ctx.project.apiKey,
      body: { keepId: ids.noRationale },
    });
    expect(merged.status).toBe(400);
    const ok = await request(url(`/api/v2/hygiene/proposals/${edit.proposalId}/apply`), {
      key: ctx.project.apiKey,
      body: { patch: { rationale: 'Deploys are automated and rolled back in one click.' } },
    });
    expect(ok.status).toBe(200);
    const row = await db()
      .selectFrom('memory_items')
      .select('rationale')
      .where('id', '=', ids.noRationale!)
      .executeTakeFirstOrThrow();
    expect(row.rationale).toBe('Deploys are automated and rolled back in one click.');
  });

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

  it('pages long lists of changes', async () => {
    const page = await request<Run>(url(`/api/v2/hygiene/runs/${applied.runId}?limit=2`), { key: ctx.project.apiKey });
    expect(page.body.changes).toHaveLength(2);
    expect(page.body.nextChangesAfter).toBe(page.body.changes[1]!.changeId);
    const rest = await request<Run>(
      url(`/api/v2/hygiene/runs/${applied.runId}?limit=1000&changesAfter=${page.body.nextChangesAfter}`),
      { key: ctx.project.apiKey },
    );
    expect(rest.body.changes.map((c) => c.changeId)).toEqual(applied.changes.slice(2).map((c) => c.changeId));
  });
});

describe('hygiene access and bad input', () => {
  it('the admin token runs any project, and must name it', async () => {
    const missing = await request<ErrorBody>(url('/api/v2/hygiene/runs'), {
      key: ADMIN_TOKEN,
      body: { mode: 'apply' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    const unknown = await request<ErrorBody>(url('/api/v2/hygiene/runs'), {
      key: ADMIN_TOKEN,
      body: { mode: 'apply', projectId: '01JD0000000000000000000000' },
    });
    expect(unknown.status).toBe(404);
    const runId = await startRun('dry-run', ADMIN_TOKEN, ctx.project.projectId);
    expect((await finished(runId, ADMIN_TOKEN)).status).toBe('completed');
    // The project's own key sees the run too.
    expect((await request(url(`/api/v2/hygiene/runs/${runId}`), { key: ctx.project.apiKey })).status).toBe(200);
  });

  it("a project key reaches only its own project's runs", async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    const denied = await request<ErrorBody>(url('/api/v2/hygiene/runs'), {
      key: other.apiKey,
      body: { mode: 'apply', projectId: ctx.project.projectId },
    });
    expect(denied.status).toBe(403);
    const runId = await startRun('dry-run');
    const hidden = await request<ErrorBody>(url(`/api/v2/hygiene/runs/${runId}`), { key: other.apiKey });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('RUN_NOT_FOUND');
    const list = await request<{ runs: Array<{ projectId: string }> }>(url('/api/v2/hygiene/runs'), {
      key: other.apiKey,
    });
    expect(list.body.runs).toEqual([]);
  });

  it("a project key cannot decide another project's proposals or revert its changes", async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('outsider');
    const p = ctx.project.projectId;
    await insertItem(db(), p, { type: 'CodeMapNode', title: 'Route: src/app/billing/page.tsx' });
    const twin = { type: 'Todo', title: 'Pin the node image digest', facts: 'Pin node:20 by digest.' };
    await insertItem(db(), p, twin);
    await insertItem(db(), p, twin);
    const run = await finished(await startRun('apply'));
    const change = run.changes.find((c) => c.rule === 'archive-code-map')!;
    const proposal = run.proposals.find((x) => x.kind === 'merge')!;
    for (const path of [
      `/api/v2/hygiene/proposals/${proposal.proposalId}/apply`,
      `/api/v2/hygiene/proposals/${proposal.proposalId}/reject`,
      `/api/v2/hygiene/changes/${change.changeId}/revert`,
    ]) {
      const res = await request<ErrorBody>(url(path), { key: other.apiKey, body: {} });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    const proposalRow = await db()
      .selectFrom('hygiene_proposals')
      .select('status')
      .where('id', '=', proposal.proposalId)
      .executeTakeFirstOrThrow();
    expect(proposalRow.status).toBe('pending');
    expect(await itemStatus(db(), change.itemId)).toBe('archived');
  });

  it.each([
    ['no credentials', undefined, { mode: 'apply' }, 401],
    ['a junk token', 'not-a-key-or-token', { mode: 'apply' }, 401],
    ['an unknown mode', 'project', { mode: 'tidy' }, 400],
    ['an unknown field', 'project', { mode: 'apply', force: true }, 400],
    ['a malformed project id', 'project', { mode: 'apply', projectId: 'x' }, 400],
  ])('answers %s with a JSON error', async (_name, who, body, status) => {
    const key = who === 'project' ? ctx.project.apiKey : who;
    const res = await request<ErrorBody>(url('/api/v2/hygiene/runs'), { key, body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toEqual(expect.any(String));
  });

  it.each([
    ['GET', '/api/v2/hygiene/runs/01JD0000000000000000000000', 404, 'RUN_NOT_FOUND'],
    ['GET', '/api/v2/hygiene/runs/nope', 400, 'VALIDATION_FAILED'],
    ['GET', '/api/v2/hygiene/runs/01JD0000000000000000000000?limit=0', 400, 'VALIDATION_FAILED'],
    ['POST', '/api/v2/hygiene/proposals/01JD0000000000000000000000/apply', 404, 'PROPOSAL_NOT_FOUND'],
    ['POST', '/api/v2/hygiene/proposals/01JD0000000000000000000000/reject', 404, 'PROPOSAL_NOT_FOUND'],
    ['POST', '/api/v2/hygiene/changes/01JD0000000000000000000000/revert', 404, 'CHANGE_NOT_FOUND'],
  ])('%s %s → %i %s', async (method, path, status, code) => {
    const res = await request<ErrorBody>(url(path), {
      method,
      key: ctx.project.apiKey,
      ...(method === 'POST' ? { body: {} } : {}),
    });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });
});

describe('queue board', () => {
  itServerOnly(
    'asks for the admin token, and shows every queue with it',
    "Bull Board reads BullMQ's queues in Redis",
    async () => {
      const anonymous = await fetch(url('/admin/queues'));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(((await anonymous.json()) as ErrorBody).error.code).toBe('UNAUTHORIZED');
      const projectKey = await fetch(url('/admin/queues'), {
        headers: { authorization: `Bearer ${ctx.project.apiKey}` },
      });
      // A project key is not a wrong admin token: it opens its own project, not the board.
      expect(projectKey.status).toBe(403);

      const page = await fetch(url('/admin/queues'), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const basic = `Basic ${Buffer.from(`ops:${ADMIN_TOKEN}`).toString('base64')}`;
      const api = await fetch(url('/admin/queues/api/queues'), { headers: { authorization: basic } });
      expect(api.status).toBe(200);
      const { queues } = (await api.json()) as { queues: Array<{ name: string }> };
      expect(queues.map((q) => q.name).sort()).toEqual(['embedding', 'enrichment', 'hygiene']);
    },
  );
});

describe('memex hygiene (command line)', () => {
  const cli = join(__dirname, '..', '..', 'bin', 'memex');
  const run = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(cli, args, { env: { PATH: process.env.PATH!, MEMEX_URL: ctx.server.url, ...env } });

  it('runs a dry run and prints a readable table of what would change', async () => {
    await insertItem(db(), ctx.project.projectId, { type: 'CodeMapNode', title: 'Route: src/app/settings/page.tsx' });
    const { stdout } = await run(['hygiene', 'run', '--project', ctx.project.projectId, '--mode', 'dry-run'], {
      MEMEX_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    expect(stdout).toMatch(/^Hygiene run \w{26} \(dry-run, operator\) on project \w{26}: completed, \d+ items scanned/);
    expect(stdout).toMatch(
      /Changes that would be made \(dry run\):\nCHANGE\s+RULE\s+ITEM\s+FROM → TO\s+TITLE\s+REASON/,
    );
    expect(stdout).toMatch(/archive-code-map\s+\w{26}\s+active → archived\s+Route: src\/app\/settings\/page\.tsx/);
  });

  it('fails with the API error and exit code 1', async () => {
    const failure = await run(['hygiene', 'run', '--mode', 'apply'], { MEMEX_ADMIN_TOKEN: ADMIN_TOKEN }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/VALIDATION_FAILED: projectId is required/),
    });
  });
});
