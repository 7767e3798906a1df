import { BrainApiModule } from '../../apps/brain-api/src';
import { HygieneWorkerModule } from '../../apps/hygiene-worker/src';
import { request, type ErrorBody } from '../support/http';
import { insertItem, itemStatus, revisionOf } from '../support/items';
import { useTestApp } from '../support/use-test-app';
import { changeOf, hygieneRuns, type Proposal, type Run } from '../support/hygiene-runs';

const ctx = useTestApp([BrainApiModule, HygieneWorkerModule], {
  env: { HYGIENE_INTERVAL_MS: '0', HYGIENE_CONCURRENCY: '2' },
});
const { url, db, startRun, finished, revert } = hygieneRuns(ctx);

/** Reopens an item by hand and archives it again: two later moves, whatever a change left. */
async function reopenAndArchive(id: string): Promise<void> {
  await db().updateTable('memory_items').set({ status: 'active' }).where('id', '=', id).execute();
  await db().updateTable('memory_items').set({ status: 'archived' }).where('id', '=', id).execute();
}

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
    const res = await revert(dryRun.changes[0]!.changeId);
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
    const res = await revert<{ changeId: string }>(change.changeId, { reason: 'still true' });
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

    const again = await revert(change.changeId);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CHANGE_NOT_REVERTIBLE');

    const next = await finished(await startRun('apply'));
    expect(changeOf(next, ids.oldFact!)).toBeUndefined();
    expect(await itemStatus(db(), ids.oldFact!)).toBe('active');
  });

  it('a revert never undoes a later change of the item', async () => {
    const change = changeOf(applied, ids.conflictB!)!;
    await reopenAndArchive(ids.conflictB!);
    const res = await revert(change.changeId);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ITEM_CHANGED_SINCE');
    expect(res.body.error.details.fields).toContain('status');
    expect(await itemStatus(db(), ids.conflictB!)).toBe('archived');
  });

  it('nor one that moved the item away and back to the same status', async () => {
    const change = changeOf(applied, ids.codeMap!)!;
    expect(change.to).toBe('archived');
    // Reopened by hand and archived again: the status equals what the change left, but it is a later move.
    await reopenAndArchive(ids.codeMap!);
    const res = await revert(change.changeId);
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
    const undo = await revert<{ changeId: string; changeIds: string[] }>(res.body.changeIds[1]);
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
    const other = await revert(res.body.changeIds[0]);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('CHANGE_NOT_REVERTIBLE');

    // Undoing the undo redoes the whole merge, never half of it.
    const redo = await revert<{ changeIds: string[] }>(undo.body.changeIds[0]);
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
    const undo = await revert(res.body.changeIds[1]);
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
