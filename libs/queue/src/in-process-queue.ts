import { randomUUID } from 'node:crypto';
import type { JobsOptions, KeepJobs } from 'bullmq';
import { DelayedError, UnrecoverableError, type JobState, type QueueJob, type QueuePort } from './queue-port';

type State = 'waiting' | 'active' | 'delayed' | 'completed' | 'failed';
export type Processor = (job: QueueJob, token: string) => Promise<unknown>;

/** Finished jobs kept when the options say nothing: enough to look at, never without end. */
const DEFAULT_KEEP = 1000;

class InProcessJob implements QueueJob {
  state: State;
  attemptsMade = 0;
  failedReason?: string;
  returnvalue: unknown = null;
  finishedOn?: number;
  /** When a delayed job is due (epoch ms). */
  dueAt: number;
  /** Set by `moveToDelayed` while the job runs: where the handler's DelayedError sends it. */
  movedTo?: number;
  readonly timestamp = Date.now();

  constructor(
    private readonly queue: InProcessQueue,
    readonly id: string,
    readonly name: string,
    public data: unknown,
    readonly opts: JobsOptions,
  ) {
    this.dueAt = this.timestamp + (opts.delay ?? 0);
    this.state = opts.delay ? 'delayed' : 'waiting';
  }

  get queueName(): string {
    return this.queue.name;
  }

  async getState(): Promise<string> {
    return this.state;
  }

  async retry(): Promise<void> {
    this.queue.retry(this);
  }

  async updateData(data: unknown): Promise<void> {
    this.data = data;
  }

  async remove(): Promise<void> {
    if (this.state === 'active') throw new Error(`job ${this.id} is running and cannot be removed`);
    this.queue.drop(this.id);
  }

  async moveToDelayed(timestamp: number): Promise<void> {
    this.movedTo = timestamp;
  }
}

/**
 * A job queue in this process, for embedded mode: what BullMQ gives Memex (job ids that add
 * nothing twice, deduplication while a job is pending or for a time, delays, retries with
 * backoff, concurrency, schedules) without Redis. It holds nothing durable: the database
 * does. After a crash, the enqueue reconciler finds the sessions whose events outran their
 * enrichment and queues them again, and a hygiene run left `running` is brought back by the
 * next sweep, as after a Redis that lost its data in server mode.
 */
export class InProcessQueue implements QueuePort {
  private readonly jobs = new Map<string, InProcessJob>();
  /** Deduplication ids: the job holding each, and until when when it has a time to live. */
  private readonly dedup = new Map<string, { jobId: string; until?: number }>();
  private readonly schedulers = new Map<string, { every: number; timer: NodeJS.Timeout }>();
  private nextId = 1;
  private processor?: Processor;
  private concurrency = 1;
  private running = 0;
  private closed = false;
  private wake?: NodeJS.Timeout;
  private drained?: () => void;

  constructor(readonly name: string) {}

  async add(name: string, data: unknown, opts: JobsOptions = {}): Promise<QueueJob | undefined> {
    return this.addOne(name, data, opts);
  }

  async addBulk(
    jobs: Array<{ name: string; data: unknown; opts?: JobsOptions }>,
  ): Promise<Array<QueueJob | undefined>> {
    return jobs.map((j) => this.addOne(j.name, j.data, j.opts ?? {}));
  }

  async upsertJobScheduler(
    id: string,
    repeat: { every: number },
    template: { name?: string; data?: unknown; opts?: JobsOptions },
  ): Promise<void> {
    await this.removeJobScheduler(id);
    const fire = () => this.addOne(template.name ?? id, template.data ?? {}, { ...template.opts, jobId: undefined });
    const timer = setInterval(fire, repeat.every);
    timer.unref();
    this.schedulers.set(id, { every: repeat.every, timer });
    // As BullMQ does: the first job at once, then one every `every`.
    fire();
  }

  async removeJobScheduler(id: string): Promise<boolean> {
    const scheduler = this.schedulers.get(id);
    if (!scheduler) return false;
    clearInterval(scheduler.timer);
    this.schedulers.delete(id);
    return true;
  }

  async getJobScheduler(id: string): Promise<{ id: string; every: number } | undefined> {
    const scheduler = this.schedulers.get(id);
    return scheduler && { id, every: scheduler.every };
  }

  async getJob(id: string): Promise<QueueJob | undefined> {
    return this.jobs.get(id);
  }

  /** Newest first, as BullMQ lists them; `end` is inclusive. */
  async getJobs(states: JobState[], start = 0, end = -1): Promise<QueueJob[]> {
    const found = [...this.jobs.values()].filter((j) => (states as string[]).includes(j.state)).reverse();
    return found.slice(start, end < 0 ? undefined : end + 1);
  }

  async getJobCounts(...states: JobState[]): Promise<Record<string, number>> {
    const counts: Record<string, number> = Object.fromEntries(states.map((s) => [s, 0]));
    for (const job of this.jobs.values()) if (job.state in counts) counts[job.state]! += 1;
    return counts;
  }

  /** Every schedule, as BullMQ lists them (`key`, `every`). */
  async getJobSchedulers(): Promise<Array<{ key: string; every: number }>> {
    return [...this.schedulers.entries()].map(([key, s]) => ({ key, every: s.every }));
  }

  /** Drops the waiting jobs (and the delayed ones too when asked), as BullMQ's `drain`. */
  async drain(delayed = false): Promise<void> {
    for (const job of [...this.jobs.values()]) {
      if (job.state === 'waiting' || (delayed && job.state === 'delayed')) this.jobs.delete(job.id);
    }
  }

  /** Drops every job that is not running, as BullMQ's `obliterate({ force: true })`. */
  async obliterate(): Promise<void> {
    for (const job of [...this.jobs.values()]) if (job.state !== 'active') this.jobs.delete(job.id);
    this.dedup.clear();
  }

  /** Runs jobs with `processor`, at most `concurrency` at once, until `close()`. */
  process(processor: Processor, concurrency: number): void {
    this.processor = processor;
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  /** Stops running jobs (they wait for the next `process`) and waits for the running ones. */
  async stop(): Promise<void> {
    this.processor = undefined;
    clearTimeout(this.wake);
    if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }

  /** Stops taking jobs and schedules, and waits for the running ones. */
  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.schedulers.keys()]) await this.removeJobScheduler(id);
    await this.stop();
  }

  drop(id: string): void {
    this.jobs.delete(id);
  }

  retry(job: InProcessJob): void {
    if (job.state !== 'failed') return;
    job.state = 'waiting';
    job.dueAt = Date.now();
    job.attemptsMade = 0;
    job.failedReason = undefined;
    job.finishedOn = undefined;
    this.pump();
  }

  private addOne(name: string, data: unknown, opts: JobsOptions): QueueJob | undefined {
    if (this.closed) throw new Error(`queue ${this.name} is closed`);
    const held = opts.jobId === undefined ? undefined : this.jobs.get(opts.jobId);
    if (held) return held;
    const dedupId = opts.deduplication?.id;
    if (dedupId && this.deduplicated(dedupId)) return undefined;
    const id = opts.jobId ?? String(this.nextId++);
    const job = new InProcessJob(this, id, name, data, opts);
    this.jobs.set(id, job);
    if (dedupId) {
      const ttl = opts.deduplication?.ttl;
      this.dedup.set(dedupId, { jobId: id, until: ttl ? Date.now() + ttl : undefined });
    }
    this.pump();
    return job;
  }

  /** A job with this deduplication id is pending (or its time to live has not run out). */
  private deduplicated(dedupId: string): boolean {
    const entry = this.dedup.get(dedupId);
    if (!entry) return false;
    const job = this.jobs.get(entry.jobId);
    const pending = entry.until !== undefined ? Date.now() < entry.until : job !== undefined && !isFinished(job.state);
    if (!pending) this.dedup.delete(dedupId);
    return pending;
  }

  /** Starts what is due, up to the concurrency, and wakes again when the next delayed job is. */
  private pump(): void {
    if (!this.processor || this.closed) return;
    const now = Date.now();
    let nextDue = Infinity;
    for (const job of this.jobs.values()) {
      if (this.running >= this.concurrency) break;
      if (job.state === 'waiting' || (job.state === 'delayed' && job.dueAt <= now)) void this.run(job);
      else if (job.state === 'delayed') nextDue = Math.min(nextDue, job.dueAt);
    }
    clearTimeout(this.wake);
    if (nextDue !== Infinity) {
      this.wake = setTimeout(() => this.pump(), Math.max(0, nextDue - now));
      this.wake.unref();
    }
  }

  private async run(job: InProcessJob): Promise<void> {
    job.state = 'active';
    job.movedTo = undefined;
    this.running += 1;
    try {
      job.returnvalue = await this.processor!(job, randomUUID());
      this.finish(job, 'completed');
    } catch (error) {
      this.failed(job, error as Error);
    } finally {
      this.running -= 1;
      if (this.running === 0) this.drained?.();
      // A job's end never runs the next one inside its own stack.
      setImmediate(() => this.pump());
    }
  }

  private failed(job: InProcessJob, error: Error): void {
    if (error instanceof DelayedError && job.movedTo !== undefined) {
      job.state = 'delayed';
      job.dueAt = job.movedTo;
      return;
    }
    job.attemptsMade += 1;
    job.failedReason = error.message;
    if (error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1)) {
      this.finish(job, 'failed');
      return;
    }
    job.state = 'delayed';
    job.dueAt = Date.now() + backoffMs(job.opts, job.attemptsMade);
  }

  private finish(job: InProcessJob, state: 'completed' | 'failed'): void {
    job.state = state;
    job.finishedOn = Date.now();
    this.prune(state, state === 'completed' ? job.opts.removeOnComplete : job.opts.removeOnFail);
  }

  /** Finished jobs past their retention (a count and an age, as BullMQ's options say) are dropped. */
  private prune(state: 'completed' | 'failed', keep: boolean | number | KeepJobs | undefined): void {
    const limit =
      keep === true
        ? 0
        : typeof keep === 'number'
          ? keep
          : typeof keep === 'object'
            ? (keep.count ?? DEFAULT_KEEP)
            : DEFAULT_KEEP;
    const maxAgeMs = typeof keep === 'object' && 'age' in keep && keep.age !== undefined ? keep.age * 1000 : Infinity;
    const finished = [...this.jobs.values()].filter((j) => j.state === state);
    const now = Date.now();
    finished.forEach((job, index) => {
      const tooMany = finished.length - index > limit;
      if (tooMany || now - (job.finishedOn ?? now) > maxAgeMs) this.jobs.delete(job.id);
    });
  }
}

function isFinished(state: State): boolean {
  return state === 'completed' || state === 'failed';
}

/** BullMQ's backoff: `fixed` waits `delay` each time, `exponential` doubles it from `delay`. */
export function backoffMs(opts: JobsOptions, attemptsMade: number): number {
  const backoff = typeof opts.backoff === 'number' ? { type: 'fixed', delay: opts.backoff } : opts.backoff;
  if (!backoff) return 0;
  const delay = backoff.delay ?? 0;
  return backoff.type === 'exponential' ? Math.round(2 ** (attemptsMade - 1) * delay) : delay;
}
