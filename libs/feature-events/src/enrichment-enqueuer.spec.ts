import type { Config } from '@memex/config';
import type { QueueJob } from '@memex/queue';
import type { JobQueue } from '@memex/server';
import { fake, fakeCounter } from '../../../test/support/fakes';
import { EnrichmentEnqueuer } from './enrichment-enqueuer';
import type { IngestMetrics } from './ingest.metrics';

const REF = { projectId: '01JD00000000000000000PROJ1', sessionId: 'S1' };

function setUp(debounceMs: number, existing?: Partial<QueueJob>) {
  const jobs = fake<JobQueue>(
    { enqueue: async () => undefined, find: async () => existing as QueueJob | undefined },
    'jobs',
  );
  const metrics = { enqueueFailures: fakeCounter() };
  const enqueuer = new EnrichmentEnqueuer(
    jobs,
    { ENRICHMENT_DEBOUNCE_MS: debounceMs } as Config,
    metrics as unknown as IngestMetrics,
  );
  return { enqueuer, jobs, failures: metrics.enqueueFailures };
}

describe('EnrichmentEnqueuer.afterBatch', () => {
  it('waits out the debounce window, and leaves the repeats within it to the queue without asking it', async () => {
    const { enqueuer, jobs } = setUp(2000);
    expect(await enqueuer.afterBatch(REF)).toBe('added');
    expect(await enqueuer.afterBatch(REF)).toBe('pending');
    expect(jobs.enqueue).toHaveBeenCalledTimes(1);
    expect(jobs.enqueue).toHaveBeenCalledWith('enrichSession', REF, { delayMs: 2000, dedupe: { ttlMs: 2000 } });
  });

  it('enqueues every batch at once when the window is 0', async () => {
    const { enqueuer, jobs } = setUp(0);
    await enqueuer.afterBatch(REF);
    await enqueuer.afterBatch(REF);
    expect(jobs.enqueue.mock.calls).toEqual([
      ['enrichSession', REF, {}],
      ['enrichSession', REF, {}],
    ]);
  });

  it('counts a failed enqueue without throwing, and tries again at the next batch', async () => {
    const { enqueuer, jobs, failures } = setUp(2000);
    jobs.enqueue.mockRejectedValueOnce(new Error('Redis away'));
    expect(await enqueuer.afterBatch(REF)).toBe('error');
    expect(failures.total()).toBe(1);
    expect(await enqueuer.afterBatch(REF)).toBe('added');
    expect(jobs.enqueue).toHaveBeenCalledTimes(2);
  });
});

describe('EnrichmentEnqueuer.now', () => {
  const job = (state: string) => ({ getState: jest.fn(async () => state), remove: jest.fn(async () => undefined) });

  it('adds a job named by the session and its newest event', async () => {
    const { enqueuer, jobs } = setUp(2000);
    expect(await enqueuer.now(REF, 42, 'complete')).toBe('added');
    expect(jobs.find).toHaveBeenCalledWith('enrichSession', 'complete-S1-42');
    expect(jobs.enqueue).toHaveBeenCalledWith('enrichSession', REF, { jobId: 'complete-S1-42' });
  });

  it.each(['waiting', 'delayed', 'active'])('leaves a %s job with that id alone: pending', async (state) => {
    const { enqueuer, jobs } = setUp(2000, job(state) as unknown as QueueJob);
    expect(await enqueuer.now(REF, 42, 'reconcile')).toBe('pending');
    expect(jobs.enqueue).not.toHaveBeenCalled();
  });

  it('leaves a job that failed for good to an operator: failed, not retried in a loop', async () => {
    const { enqueuer, jobs } = setUp(2000, job('failed') as unknown as QueueJob);
    expect(await enqueuer.now(REF, 42, 'reconcile')).toBe('failed');
    expect(jobs.enqueue).not.toHaveBeenCalled();
  });

  it('replaces a finished job with that id: the session still lags, or nobody would ask', async () => {
    const done = job('completed');
    const { enqueuer, jobs } = setUp(2000, done as unknown as QueueJob);
    expect(await enqueuer.now(REF, 42, 'reconcile')).toBe('added');
    expect(done.remove).toHaveBeenCalled();
    expect(jobs.enqueue).toHaveBeenCalledWith('enrichSession', REF, { jobId: 'reconcile-S1-42' });
  });

  it('answers error, counted, when the queue cannot be read', async () => {
    const { enqueuer, jobs, failures } = setUp(2000);
    jobs.find.mockRejectedValueOnce(new Error('Redis away'));
    expect(await enqueuer.now(REF, 42, 'complete')).toBe('error');
    expect(failures.total()).toBe(1);
    expect(jobs.enqueue).not.toHaveBeenCalled();
  });
});
