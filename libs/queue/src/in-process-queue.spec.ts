import { DelayedError, UnrecoverableError, type QueueJob } from './queue-port';
import { InProcessQueue, backoffMs } from './in-process-queue';

const until = async (check: () => boolean | Promise<boolean>, ms = 2000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('InProcessQueue', () => {
  let queue: InProcessQueue;
  beforeEach(() => (queue = new InProcessQueue('test')));
  afterEach(() => queue.close());

  it('runs each job once, in order, at most `concurrency` at a time', async () => {
    const seen: unknown[] = [];
    let running = 0;
    let most = 0;
    queue.process(async (job) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(job.data);
      running -= 1;
      return 'ok';
    }, 2);
    await queue.addBulk([1, 2, 3, 4, 5].map((n) => ({ name: 'n', data: n })));
    await until(async () => (await queue.getJobCounts('completed')).completed === 5);
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    const [newest] = await queue.getJobs(['completed'], 0, 0);
    expect(newest?.returnvalue).toBe('ok');
  });

  it('adds nothing for a job id it holds, or a deduplication id while that job is pending', async () => {
    await queue.add('a', 1, { jobId: 'x' });
    await queue.add('a', 2, { jobId: 'x' });
    await queue.add('b', 1, { deduplication: { id: 'd' } });
    await queue.add('b', 2, { deduplication: { id: 'd' } });
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 2 });
    expect((await queue.getJob('x'))?.data).toBe(1);
    queue.process(async () => undefined, 1);
    await until(async () => (await queue.getJobCounts('completed')).completed === 2);
    // Finished, the deduplication id is free again; the job id is held while the job is kept.
    await queue.add('b', 3, { deduplication: { id: 'd' } });
    await queue.add('a', 3, { jobId: 'x' });
    await until(async () => (await queue.getJobCounts('completed')).completed === 3);
  });

  it('retries a failing job with backoff, then keeps it failed with its reason until retried', async () => {
    let calls = 0;
    queue.process(async () => {
      calls += 1;
      if (calls < 4) throw new Error(`boom ${calls}`);
      return 'fine';
    }, 1);
    const job = (await queue.add('f', {}, { attempts: 2, backoff: { type: 'fixed', delay: 10 } })) as QueueJob;
    await until(async () => (await job.getState()) === 'failed');
    expect(calls).toBe(2);
    expect(job.failedReason).toBe('boom 2');
    await job.retry('failed');
    await until(async () => (await job.getState()) === 'completed');
    expect(await job.getState()).toBe('completed');
  });

  it('fails an unrecoverable job at once, and delays a job that moved itself', async () => {
    const moved: number[] = [];
    queue.process(async (job, token) => {
      if (job.name === 'bad') throw new UnrecoverableError('never');
      if (moved.length === 0) {
        moved.push(Date.now());
        await job.moveToDelayed(Date.now() + 30, token);
        throw new DelayedError();
      }
      moved.push(Date.now());
    }, 1);
    const bad = (await queue.add('bad', {}, { attempts: 5 })) as QueueJob;
    const later = (await queue.add('later', {}, { attempts: 1 })) as QueueJob;
    await until(async () => (await later.getState()) === 'completed');
    expect(await bad.getState()).toBe('failed');
    expect(bad.attemptsMade).toBe(1);
    expect(later.attemptsMade).toBe(0);
    expect(moved[1]! - moved[0]!).toBeGreaterThanOrEqual(25);
  });

  it('runs a delayed job when it is due, not before', async () => {
    const ran: number[] = [];
    queue.process(async () => void ran.push(Date.now()), 1);
    const added = Date.now();
    await queue.add('d', {}, { delay: 40 });
    expect(await queue.getJobCounts('delayed')).toEqual({ delayed: 1 });
    await until(() => ran.length === 1);
    expect(ran[0]! - added).toBeGreaterThanOrEqual(35);
  });

  it('adds a scheduled job at once and every interval, until the schedule is removed', async () => {
    await queue.upsertJobScheduler('s', { every: 20 }, { name: 'tick', data: {} });
    expect(await queue.getJobScheduler('s')).toEqual({ id: 's', every: 20 });
    await until(async () => (await queue.getJobCounts('waiting')).waiting! >= 3);
    await queue.removeJobScheduler('s');
    const count = (await queue.getJobCounts('waiting')).waiting;
    await new Promise((r) => setTimeout(r, 50));
    expect((await queue.getJobCounts('waiting')).waiting).toBe(count);
    expect(await queue.getJobScheduler('s')).toBeUndefined();
  });

  it('keeps only as many finished jobs as the options say', async () => {
    queue.process(async () => undefined, 1);
    await queue.addBulk([1, 2, 3, 4].map((n) => ({ name: 'n', data: n, opts: { removeOnComplete: { count: 2 } } })));
    await until(async () => (await queue.getJobCounts('waiting', 'active')).waiting === 0);
    await until(async () => (await queue.getJobs(['completed'])).length === 2);
    expect((await queue.getJobs(['completed'])).map((j) => j.data)).toEqual([4, 3]);
  });

  it('waits for running jobs on close, and takes no more', async () => {
    let finished = false;
    queue.process(async () => {
      await new Promise((r) => setTimeout(r, 30));
      finished = true;
    }, 1);
    await queue.add('slow', {});
    await until(async () => (await queue.getJobCounts('active')).active === 1);
    await queue.close();
    expect(finished).toBe(true);
    await expect(queue.add('late', {})).rejects.toThrow('closed');
  });
});

describe('backoffMs', () => {
  it('doubles an exponential delay per failed attempt and keeps a fixed one', () => {
    expect([1, 2, 3].map((n) => backoffMs({ backoff: { type: 'exponential', delay: 2000 } }, n))).toEqual([
      2000, 4000, 8000,
    ]);
    expect(backoffMs({ backoff: 500 }, 3)).toBe(500);
    expect(backoffMs({}, 1)).toBe(0);
  });
});
