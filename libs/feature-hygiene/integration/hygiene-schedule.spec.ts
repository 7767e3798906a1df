import { HYGIENE_SCHEDULER_ID, HygienePassesModule } from '@memex/feature-hygiene';
import { ProjectRepository } from '@memex/db';
import { newId } from '@memex/domain';
import { QUEUES } from '@memex/queue';
import { insertItem, itemStatus } from '../../../test/support/items';
import { openQueue, purgeQueuePrefix } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { waitFor } from '../../../test/support/wait';
import { itServerOnly } from '../../../test/support/mode';

const ctx = useTestApp([HygienePassesModule], {
  env: { HYGIENE_INTERVAL_MS: '1000', HYGIENE_SCHEDULE_CHECK_MS: '500' },
});

describe('scheduled hygiene', () => {
  it('a job scheduler passes over every project on the cadence, applying by default', async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('second');
    const stale = await insertItem(ctx.database.db, other.projectId, { updatedDaysAgo: 90 });
    const hygiene = await openQueue(ctx.server, QUEUES.hygiene);
    try {
      const schedulers = await hygiene.queue.getJobSchedulers();
      expect(schedulers).toEqual([expect.objectContaining({ key: HYGIENE_SCHEDULER_ID, every: 1000 })]);
      await waitFor(async () => {
        const runs = await ctx.database.db
          .selectFrom('hygiene_runs')
          .select(['project_id'])
          .where('trigger', '=', 'schedule')
          .where('status', '=', 'completed')
          .execute();
        const projects = new Set(runs.map((r) => r.project_id));
        return projects.has(ctx.project.projectId) && projects.has(other.projectId);
      }, 20_000);
      expect(await itemStatus(ctx.database.db, stale)).toBe('stale');
      const run = await ctx.database.db
        .selectFrom('hygiene_runs')
        .selectAll()
        .where('project_id', '=', other.projectId)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      expect(run).toMatchObject({ mode: 'apply', requested_by: 'scheduler' });
    } finally {
      await hygiene.close();
    }
  });

  it('the sweep drops scheduled runs that did nothing a week ago, and keeps the rest', async () => {
    const db = ctx.database.db;
    const old = new Date(Date.now() - 8 * 86_400_000);
    const run = (trigger: 'schedule' | 'operator', finished: Date) => ({
      id: newId(),
      project_id: ctx.project.projectId,
      mode: 'apply' as const,
      trigger,
      requested_by: 'test',
      status: 'completed' as const,
      created_at: finished,
      finished_at: finished,
    });
    const idle = run('schedule', old);
    const recent = run('schedule', new Date());
    const operator = run('operator', old);
    const busy = run('schedule', old);
    await db.insertInto('hygiene_runs').values([idle, recent, operator, busy]).execute();
    const item = await insertItem(db, ctx.project.projectId, {});
    await db
      .insertInto('hygiene_changes')
      .values({
        id: newId(),
        project_id: ctx.project.projectId,
        run_id: busy.id,
        item_id: item,
        rule: 'stale-by-age',
        before: JSON.stringify({ status: 'active' }),
        after: JSON.stringify({ status: 'stale' }),
        reason: 'test',
        applied: true,
      })
      .execute();
    await waitFor(async () => {
      const left = await db.selectFrom('hygiene_runs').select('id').where('id', '=', idle.id).execute();
      return left.length === 0;
    });
    const kept = await db
      .selectFrom('hygiene_runs')
      .select('id')
      .where('id', 'in', [recent.id, operator.id, busy.id])
      .execute();
    expect(kept).toHaveLength(3);
  });

  it('the sweep brings back an operator run whose job was lost', async () => {
    const db = ctx.database.db;
    const lost = {
      id: newId(),
      project_id: ctx.project.projectId,
      mode: 'apply' as const,
      trigger: 'operator' as const,
      requested_by: 'test',
      status: 'queued' as const,
      created_at: new Date(Date.now() - 20 * 60_000),
    };
    // Asked for a minute ago: its job may simply be waiting, and is left to it.
    const recent = { ...lost, id: newId(), mode: 'dry-run' as const, created_at: new Date(Date.now() - 60_000) };
    await db.insertInto('hygiene_runs').values([lost, recent]).execute();
    await waitFor(async () => {
      const row = await db.selectFrom('hygiene_runs').select('status').where('id', '=', lost.id).executeTakeFirst();
      return row?.status === 'completed';
    }, 20_000);
    const left = await db.selectFrom('hygiene_runs').select('status').where('id', '=', recent.id).executeTakeFirst();
    expect(left?.status).toBe('queued');
  });

  itServerOnly(
    'makes the schedule again when Redis loses it, and scheduled passes go on',
    'empties Redis',
    async () => {
      const hygiene = await openQueue(ctx.server, QUEUES.hygiene);
      try {
        expect(await hygiene.queue.getJobScheduler(HYGIENE_SCHEDULER_ID)).toBeDefined();
        // Redis losing its data, for this test's keys only: the Redis server is shared.
        const lostAt = new Date();
        await purgeQueuePrefix(ctx.server.config.QUEUE_PREFIX);
        await waitFor(async () => (await hygiene.queue.getJobScheduler(HYGIENE_SCHEDULER_ID)) !== undefined, 10_000);
        expect(await hygiene.queue.getJobSchedulers()).toEqual([
          expect.objectContaining({ key: HYGIENE_SCHEDULER_ID, every: 1000 }),
        ]);
        await waitFor(async () => {
          const run = await ctx.database.db
            .selectFrom('hygiene_runs')
            .select('id')
            .where('trigger', '=', 'schedule')
            .where('status', '=', 'completed')
            .where('created_at', '>', lostAt)
            .executeTakeFirst();
          return run !== undefined;
        }, 15_000);
      } finally {
        await hygiene.close();
      }
    },
  );
});
