import type { Logger } from '@nestjs/common';

/**
 * Work a process repeats every interval (a reconciler, a poller): never two runs at once, a
 * failed run logged and tried again next interval, and a run in flight awaited at shutdown.
 */
export class IntervalTask<A extends unknown[], T> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<T> | undefined;

  constructor(
    private readonly work: (...args: A) => Promise<T>,
    private readonly logger: Logger,
    private readonly failure: string,
  ) {}

  /** Every `intervalMs`, a run (with `args`, if any); the timer never keeps the process alive. */
  start(intervalMs: number, ...args: A): void {
    this.timer = setInterval(() => {
      this.runOnce(...args).catch((error: unknown) =>
        this.logger.warn({ err: (error as Error).message }, this.failure),
      );
    }, intervalMs);
    this.timer.unref();
  }

  /** A run now, or the one already in flight. */
  runOnce(...args: A): Promise<T> {
    this.running ??= this.work(...args).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
