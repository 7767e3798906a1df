import { ItemChanges, MemoryItemAdminRepository, ProjectRepository, itemTransaction } from '@memex/db';
import { candidateItemSchema } from '@memex/enrichment';
import { EnrichmentModule, WindowWriter } from '@memex/feature-enrichment';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { useTestApp } from '../../../test/support/use-test-app';

// Every writer of items goes through one writer: one history shape, one revision bump, one
// announcement after the commit.
const ctx = useTestApp([EnrichmentModule]);

const body = {
  type: 'Decision' as const,
  title: 'Money is integer cents',
  facts: 'Every amount is stored as integer cents.',
  rationale: null,
  impact: null,
  files: [],
  tags: [],
  importance: 3,
  confidence: 1,
  evidence: [],
  schemaKey: 'root',
  dedupHint: 'decision:money:integer-cents',
};

function heard(): { projects: string[]; stop: () => void } {
  const projects: string[] = [];
  const stop = ctx.server.app.get(ItemChanges).listen((projectId) => projects.push(projectId));
  return { projects, stop };
}

function revision() {
  return ctx.database.db
    .selectFrom('projects')
    .select('memory_revision')
    .where('id', '=', ctx.project.projectId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.memory_revision));
}

describe('the item writer', () => {
  it('announces a change once, after it is committed, and bumps the revision once', async () => {
    const admin = ctx.server.app.get(MemoryItemAdminRepository);
    const seen: Array<{ projectId: string; visible: boolean }> = [];
    const stop = ctx.server.app.get(ItemChanges).listen((projectId) => {
      // Read on another connection: the announcement comes only once others can see the write.
      void ctx.database.db
        .selectFrom('memory_items')
        .select('id')
        .where('project_id', '=', projectId)
        .where('title', '=', body.title)
        .executeTakeFirst()
        .then((row) => seen.push({ projectId, visible: row !== undefined }));
    });
    const before = await revision();
    const item = await admin.create(ctx.project.projectId, body, { actor: 'test', reason: 'by hand' });
    await new Promise((r) => setTimeout(r, 200));
    stop();
    expect(seen).toEqual([{ projectId: ctx.project.projectId, visible: true }]);
    expect(await revision()).toBe(before + 1);

    const history = await ctx.database.db
      .selectFrom('item_history')
      .selectAll()
      .where('item_id', '=', item.itemId)
      .execute();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ change: 'created', before: null, actor_type: 'user', actor: 'test' });
  });

  it('announces nothing and writes nothing when the change fails', async () => {
    const admin = ctx.server.app.get(MemoryItemAdminRepository);
    const listening = heard();
    const before = await revision();
    const real = await admin.create(
      ctx.project.projectId,
      { ...body, title: 'Another' },
      { actor: 'test', reason: null },
    );
    listening.projects.length = 0;
    const revisionBefore = await revision();
    // One item updated, then an unknown one: the first update is rolled back with the rest.
    await expect(
      admin.edit(ctx.project.projectId, { actor: 'test', reason: null }, async (tx) => {
        await tx.lock([real.itemId]);
        await tx.update(real.itemId, { title: 'Changed' }, 'edited');
        await tx.lock(['01JD0000000000000000000000']);
      }),
    ).rejects.toMatchObject({ code: 'ITEM_NOT_FOUND' });
    expect(await revision()).toBe(revisionBefore);
    const row = await ctx.database.db
      .selectFrom('memory_items')
      .select('title')
      .where('id', '=', real.itemId)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Another');
    listening.stop();
    expect(listening.projects).toEqual([]);
    expect(before).toBeLessThan(revisionBefore);
  });

  it('records an enrichment window like any other change: the whole item before and after', async () => {
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'writer', [rawEvent('prompt', 'hello')]);
    const spans = [{ eventId: 'w1', quote: 'integer cents everywhere' }];
    const item = {
      candidate: candidateItemSchema.parse({
        ...body,
        title: 'Amounts are integer cents',
        dedupHint: 'decision:money:cents',
        schemaKey: 'root/money',
        confidence: 0.6,
        evidence: spans,
      }),
      spans,
    };
    const listening = heard();
    const write = (cursor: number, facts: string) =>
      ctx.server.app.get(WindowWriter).write(
        {
          projectId: ctx.project.projectId,
          sessionId,
          expectedCursor: cursor,
          newCursor: cursor + 1,
          windowEndedAt: new Date(),
          actor: 'enrichment:test',
          runId: `run-${cursor}`,
        },
        [{ ...item, candidate: { ...item.candidate, facts } }],
        { retracted: [], sessionCap: 15 },
      );
    await write(0, 'Every amount is stored as integer cents.');
    await write(1, 'Every amount is stored as integer cents.');
    listening.stop();
    expect(listening.projects).toEqual([ctx.project.projectId, ctx.project.projectId]);

    const [created, reinforced] = await ctx.database.db
      .selectFrom('item_history as h')
      .innerJoin('memory_items as m', 'm.id', 'h.item_id')
      .select(['h.change', 'h.before', 'h.after', 'h.run_id'])
      .where('m.dedup_hint', '=', 'decision:money:cents')
      .orderBy('h.id')
      .execute();
    expect(created).toMatchObject({ change: 'created', before: null, run_id: 'run-0' });
    expect(reinforced).toMatchObject({ change: 'reinforced', run_id: 'run-1' });
    expect(Object.keys(reinforced!.before as object).sort()).toEqual(Object.keys(reinforced!.after as object).sort());
  });
});

/** When each item was last updated, in epoch ms, as a hygiene pass reads it before it moves them. */
async function readAt(ids: string[]): Promise<Map<string, number>> {
  const rows = await ctx.database.db
    .selectFrom('memory_items')
    .select(['id', 'updated_at'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.updated_at.getTime()]));
}

describe("the item writer's set-wise status moves (a hygiene pass)", () => {
  it('moves each item still as the pass read it, with its history entry, and announces once after the commit', async () => {
    const admin = ctx.server.app.get(MemoryItemAdminRepository);
    const actor = { actor: 'test', reason: null };
    const kept = await admin.create(ctx.project.projectId, { ...body, title: 'Moved by the pass' }, actor);
    const touched = await admin.create(ctx.project.projectId, { ...body, title: 'Edited meanwhile' }, actor);
    const readMs = await readAt([kept.itemId, touched.itemId]);
    // Someone edits the second item after the pass read it.
    await admin.edit(ctx.project.projectId, actor, async (tx) => {
      await tx.lock([touched.itemId]);
      await tx.update(touched.itemId, { title: 'Edited meanwhile, again' }, 'edited');
    });
    const listening = heard();
    const revisionBefore = await revision();

    const made = await itemTransaction(ctx.database.db, ctx.server.app.get(ItemChanges), async (open) => {
      const writer = await open(ctx.project.projectId, { actorType: 'rule', actor: 'hygiene', runId: 'run-moves' });
      const moves = [kept.itemId, touched.itemId].map((itemId) => ({
        itemId,
        from: 'active',
        to: 'stale',
        updatedMs: readMs.get(itemId) ?? null,
        actor: 'stale-by-age',
        reason: 'not reinforced for 90 days',
      }));
      const result = await writer.moveStatuses(moves);
      // Not yet committed: nothing announced.
      expect(listening.projects).toEqual([]);
      return result;
    });
    listening.stop();

    expect(made.map((m) => m.itemId)).toEqual([kept.itemId]);
    expect(listening.projects).toEqual([ctx.project.projectId]);
    expect(await revision()).toBe(revisionBefore + 1);
    const statuses = await ctx.database.db
      .selectFrom('memory_items')
      .select(['id', 'status'])
      .where('id', 'in', [kept.itemId, touched.itemId])
      .execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [kept.itemId]: 'stale',
      [touched.itemId]: 'active',
    });
    const history = await ctx.database.db
      .selectFrom('item_history')
      .selectAll()
      .where('item_id', 'in', [kept.itemId, touched.itemId])
      .where('change', '=', 'status')
      .execute();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      item_id: kept.itemId,
      actor_type: 'rule',
      actor: 'stale-by-age',
      reason: 'not reinforced for 90 days',
      run_id: 'run-moves',
      before: expect.objectContaining({ status: 'active', title: 'Moved by the pass' }),
      after: expect.objectContaining({ status: 'stale', title: 'Moved by the pass' }),
    });
    expect(history[0]!.after).not.toHaveProperty('project_id');
  });

  it("moves no item whose status is no longer the one read, and no other project's item", async () => {
    const admin = ctx.server.app.get(MemoryItemAdminRepository);
    const actor = { actor: 'test', reason: null };
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('writer-other');
    const mine = await admin.create(ctx.project.projectId, { ...body, title: 'Read as stale' }, actor);
    const theirs = await admin.create(other.projectId, { ...body, title: 'Not this project' }, actor);
    const readMs = await readAt([mine.itemId, theirs.itemId]);

    const made = await itemTransaction(ctx.database.db, ctx.server.app.get(ItemChanges), async (open) => {
      const writer = await open(ctx.project.projectId, { actorType: 'rule', actor: 'hygiene', runId: 'run-skips' });
      // The pass read `mine` as stale (it is active) and names an item of another project.
      return writer.moveStatuses(
        [mine.itemId, theirs.itemId].map((itemId) => ({
          itemId,
          from: itemId === mine.itemId ? 'stale' : 'active',
          to: 'archived',
          updatedMs: readMs.get(itemId) ?? null,
          actor: 'archive-stale',
          reason: 'stale for 180 days',
        })),
      );
    });

    expect(made).toEqual([]);
    const statuses = await ctx.database.db
      .selectFrom('memory_items')
      .select(['id', 'status'])
      .where('id', 'in', [mine.itemId, theirs.itemId])
      .execute();
    expect(statuses.map((s) => s.status)).toEqual(['active', 'active']);
    const history = await ctx.database.db
      .selectFrom('item_history')
      .select('id')
      .where('item_id', 'in', [mine.itemId, theirs.itemId])
      .where('change', '=', 'status')
      .execute();
    expect(history).toEqual([]);
  });
});

describe("the item writer's history rewrite (memex redact)", () => {
  it("rewrites its own project's entry, never another project's, and never who or when", async () => {
    const admin = ctx.server.app.get(MemoryItemAdminRepository);
    const item = await admin.create(
      ctx.project.projectId,
      { ...body, title: 'Token in history' },
      {
        actor: 'test',
        reason: 'the token is ghp_x',
      },
    );
    const entry = await ctx.database.db
      .selectFrom('item_history')
      .select(['id', 'actor', 'created_at'])
      .where('item_id', '=', item.itemId)
      .executeTakeFirstOrThrow();
    const other = await new ProjectRepository(ctx.database.db).createWithKey(`other-${process.pid}`);
    const rewrite = (projectId: string, set: Record<string, unknown>) =>
      itemTransaction(ctx.database.db, ctx.server.app.get(ItemChanges), async (open) =>
        (await open(projectId, { actorType: 'operator', actor: 'admin-token' })).rewriteHistory(String(entry.id), set),
      );

    expect(await rewrite(other.projectId, { reason: 'the token is [REDACTED:github-token]' })).toBe(false);
    expect(await rewrite(ctx.project.projectId, { reason: 'the token is [REDACTED:github-token]' })).toBe(true);
    await expect(rewrite(ctx.project.projectId, { actor: 'someone else' })).rejects.toThrow(
      'no rewritable column actor',
    );

    const after = await ctx.database.db
      .selectFrom('item_history')
      .select(['reason', 'actor', 'created_at'])
      .where('id', '=', entry.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({
      reason: 'the token is [REDACTED:github-token]',
      actor: entry.actor,
      created_at: entry.created_at,
    });
  });
});
