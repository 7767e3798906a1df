import { EventEmitter } from 'node:events';
import type { Config } from '@memex/config';
import type { JobQueue } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import { HYGIENE_SCHEDULER_ID, HygieneScheduler } from './hygiene.scheduler';

function setUp(intervalMs: number, scheduled: boolean) {
  const jobs = fake<JobQueue>(
    {
      schedule: async () => undefined,
      unschedule: async () => undefined,
      isScheduled: async () => scheduled,
    },
    'jobs',
  );
  const redis = new EventEmitter();
  const scheduler = new HygieneScheduler(jobs, redis, {
    HYGIENE_INTERVAL_MS: intervalMs,
    HYGIENE_SCHEDULE_CHECK_MS: 3_600_000,
    HYGIENE_SCHEDULED_MODE: 'apply',
  } as Config);
  return { scheduler, jobs, redis };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('HygieneScheduler', () => {
  it('makes the one schedule every replica shares at start', async () => {
    const { scheduler, jobs } = setUp(86_400_000, true);
    await scheduler.onApplicationBootstrap();
    expect(jobs.schedule).toHaveBeenCalledWith('hygieneSweep', HYGIENE_SCHEDULER_ID, 86_400_000, {});
    await scheduler.onApplicationShutdown();
  });

  it('turns scheduled passes off with HYGIENE_INTERVAL_MS=0', async () => {
    const { scheduler, jobs } = setUp(0, true);
    await scheduler.onApplicationBootstrap();
    expect(jobs.unschedule).toHaveBeenCalledWith('hygieneSweep', HYGIENE_SCHEDULER_ID);
    expect(jobs.schedule).not.toHaveBeenCalled();
    await scheduler.onApplicationShutdown();
  });

  it('makes the schedule again when Redis comes back without it, and leaves one that is there', async () => {
    const missing = setUp(86_400_000, false);
    await missing.scheduler.onApplicationBootstrap();
    missing.redis.emit('ready');
    await settled();
    expect(missing.jobs.schedule).toHaveBeenCalledTimes(2);
    await missing.scheduler.onApplicationShutdown();

    const present = setUp(86_400_000, true);
    await present.scheduler.onApplicationBootstrap();
    present.redis.emit('ready');
    await settled();
    expect(present.jobs.isScheduled).toHaveBeenCalled();
    expect(present.jobs.schedule).toHaveBeenCalledTimes(1);
    await present.scheduler.onApplicationShutdown();
    // Stopped: Redis coming back no longer checks anything.
    present.redis.emit('ready');
    await settled();
    expect(present.jobs.isScheduled).toHaveBeenCalledTimes(1);
  });
});
