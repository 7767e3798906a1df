import type { Logger } from '@nestjs/common';
import { IntervalTask } from './interval-task';

const logger = () => {
  const warnings: unknown[][] = [];
  return { warnings, logger: { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger };
};

describe('IntervalTask', () => {
  it('never runs twice at once: a second call joins the run in flight', async () => {
    let runs = 0;
    let release!: () => void;
    const task = new IntervalTask(
      () => {
        runs += 1;
        return new Promise<number>((resolve) => (release = () => resolve(runs)));
      },
      logger().logger,
      'failed',
    );
    const a = task.runOnce();
    const b = task.runOnce();
    release();
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    const c = task.runOnce();
    release();
    expect(await c).toBe(2);
  });

  it('passes its arguments through', async () => {
    const task = new IntervalTask((n: number) => Promise.resolve(n * 2), logger().logger, 'failed');
    expect(await task.runOnce(21)).toBe(42);
  });

  it('runs on its interval, logs a failed run and tries again, and stop awaits the run in flight', async () => {
    const { warnings, logger: log } = logger();
    let calls = 0;
    let finished = false;
    const task = new IntervalTask(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        await new Promise((r) => setTimeout(r, 30));
        finished = true;
      },
      log,
      'poll failed',
    );
    task.start(10);
    while (calls < 2) await new Promise((r) => setTimeout(r, 5));
    await task.stop();
    expect(finished).toBe(true);
    expect(warnings[0]).toEqual([{ err: 'boom' }, 'poll failed']);
    const after = calls;
    await new Promise((r) => setTimeout(r, 40));
    expect(calls).toBe(after);
  });
});
