import type { HygieneRunRepository, HygieneRunRow } from '@memex/db';
import type { Transition } from '@memex/domain';
import { DelayedError, type QueueJob } from '@memex/queue';
import { fake, fakeCounter } from '../../../test/support/fakes';
import { HygienePassHandler } from './hygiene-pass.handler';
import type { HygienePassService, PassResult } from './hygiene-pass.service';
import type { HygieneMetrics } from './hygiene.metrics';

const PAYLOAD = { projectId: 'P1', mode: 'apply' as const, trigger: 'schedule' as const };
const RUN = { id: 'run-1', project_id: 'P1', mode: 'apply', status: 'queued' } as HygieneRunRow;
const MOVE = { itemId: 'i1', from: 'active', to: 'stale', rule: 'stale-by-age', reason: 'old' } as Transition;

function setUp(result: PassResult | Error, run: HygieneRunRow = RUN, attempt = { made: 0, of: 3 }) {
  const runs = fake<HygieneRunRepository>(
    {
      create: async () => run,
      find: async () => run,
      markFailed: async () => undefined,
      requeue: async () => undefined,
    },
    'runs',
  );
  const passes = fake<HygienePassService>(
    { pass: async () => (result instanceof Error ? Promise.reject(result) : result) },
    'passes',
  );
  const metrics = {
    passes: fakeCounter(),
    changes: fakeCounter(),
    passSeconds: { observe: jest.fn() },
  };
  const job = fake<QueueJob>(
    {
      id: 'job-1',
      attemptsMade: attempt.made,
      opts: { attempts: attempt.of },
      updateData: async () => undefined,
      moveToDelayed: async () => undefined,
    },
    'job',
  );
  const handler = new HygienePassHandler(runs, passes, metrics as unknown as HygieneMetrics);
  return { handler, runs, passes, metrics, job };
}

const done: PassResult = {
  busy: false,
  alreadyDone: false,
  outcome: { applied: [MOVE], skipped: 0, proposals: 2 },
  itemsScanned: 10,
  ms: 12,
};

describe('HygienePassHandler', () => {
  it('a scheduled pass makes its run and keeps its id on the job, so retries and delays reuse it', async () => {
    const { handler, runs, job } = setUp(done);
    expect(await handler.handle(PAYLOAD, job)).toEqual({ runId: 'run-1', changes: 1, proposals: 2, ms: 12 });
    expect(runs.create).toHaveBeenCalledWith({ ...PAYLOAD, requestedBy: 'scheduler' });
    expect(job.updateData).toHaveBeenCalledWith({ ...PAYLOAD, runId: 'run-1' });
  });

  it('counts the pass and each move by rule and mode', async () => {
    const { handler, metrics, job } = setUp(done);
    await handler.handle({ ...PAYLOAD, runId: 'run-1' }, job);
    expect(metrics.passes.inc).toHaveBeenCalledWith({ mode: 'apply' });
    expect(metrics.changes.inc).toHaveBeenCalledWith({ rule: 'stale-by-age', mode: 'apply' });
    expect(metrics.passSeconds.observe).toHaveBeenCalledWith(0.012);
  });

  it('never runs a completed run again', async () => {
    const { handler, passes, job } = setUp(done, { ...RUN, status: 'completed' });
    expect(await handler.handle({ ...PAYLOAD, runId: 'run-1' }, job)).toEqual({ runId: 'run-1', status: 'completed' });
    expect(passes.pass).not.toHaveBeenCalled();
  });

  it('goes back to delayed without spending an attempt while another pass of the project runs', async () => {
    const { handler, job } = setUp({ busy: true });
    await expect(handler.handle({ ...PAYLOAD, runId: 'run-1' }, job, 'token-1')).rejects.toBeInstanceOf(DelayedError);
    expect(job.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token-1');
  });

  it('requeues the run on a failure BullMQ will retry, and marks it failed on the last attempt', async () => {
    const retried = setUp(new Error('connection lost'), RUN, { made: 0, of: 3 });
    await expect(retried.handler.handle({ ...PAYLOAD, runId: 'run-1' }, retried.job)).rejects.toThrow(
      'connection lost',
    );
    expect(retried.runs.requeue).toHaveBeenCalledWith('run-1', 'connection lost');
    expect(retried.runs.markFailed).not.toHaveBeenCalled();

    const last = setUp(new Error('connection lost'), RUN, { made: 2, of: 3 });
    await expect(last.handler.handle({ ...PAYLOAD, runId: 'run-1' }, last.job)).rejects.toThrow('connection lost');
    expect(last.runs.markFailed).toHaveBeenCalledWith('run-1', 'connection lost');
    expect(last.runs.requeue).not.toHaveBeenCalled();
  });
});
