import { HYGIENE_SCHEDULER_ID, HygienePassesModule } from '@memex/feature-hygiene';
import { QUEUES } from '@memex/queue';
import { openQueue, purgeQueuePrefix } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { waitFor } from '../../../test/support/wait';
import { describeServerOnly } from '../../../test/support/mode';

// The periodic check is an hour away: only the reconnection can bring the schedule back here.
const ctx = useTestApp([HygienePassesModule], {
  env: { HYGIENE_INTERVAL_MS: '60000', HYGIENE_SCHEDULE_CHECK_MS: '3600000' },
  redisProxy: true,
});

describeServerOnly('the hygiene schedule after a Redis restart', 'restarts Redis', () => {
  it('is made again as soon as the connection is back, when Redis came back without it', async () => {
    const hygiene = await openQueue(ctx.server, QUEUES.hygiene);
    try {
      expect(await hygiene.queue.getJobScheduler(HYGIENE_SCHEDULER_ID)).toBeDefined();
      // A restart without persistence: the connections drop, and the data is gone when they return.
      ctx.redisProxy.cut();
      await purgeQueuePrefix(ctx.server.config.QUEUE_PREFIX);
      expect(await hygiene.queue.getJobScheduler(HYGIENE_SCHEDULER_ID)).toBeUndefined();
      ctx.redisProxy.restore();
      await waitFor(async () => (await hygiene.queue.getJobScheduler(HYGIENE_SCHEDULER_ID)) !== undefined, 10_000);
      expect(await hygiene.queue.getJobSchedulers()).toEqual([
        expect.objectContaining({ key: HYGIENE_SCHEDULER_ID, every: 60000 }),
      ]);
    } finally {
      await hygiene.close();
    }
  });
});
