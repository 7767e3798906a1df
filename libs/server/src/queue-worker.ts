import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type Provider,
  type OnApplicationBootstrap,
  type Type,
} from '@nestjs/common';
import { Worker } from 'bullmq';
import type IORedis from 'ioredis';
import type { Config } from '@memex/config';
import {
  InProcessQueue,
  JOBS,
  UnrecoverableError,
  assertHandlers,
  createRedisConnection,
  type JobKey,
  type JobPayload,
  type QueueJob,
  type QueueName,
} from '@memex/queue';
import { CONFIG } from './config.module';
import { logConnectionErrors } from './connection-errors';
import { jobLogContext } from './log-context';
import { ALL_QUEUES, type AllQueues } from './queue-tokens';

/** One class per job: the registry refuses to start a worker unless each job has exactly one. */
export interface JobHandler<K extends JobKey = JobKey> {
  readonly job: K;
  /** How many of this queue's jobs one process runs at once. */
  concurrency?(config: Config): number;
  /** `token` is the job's lock token, for handlers that move their job (e.g. back to delayed). */
  handle(payload: JobPayload<K>, job: QueueJob, token?: string): Promise<unknown>;
}

const JOB_HANDLERS = Symbol('JOB_HANDLERS');
const WORKER_QUEUES = Symbol('WORKER_QUEUES');

/**
 * Runs the queues a process consumes: in server mode BullMQ workers, on connections of their
 * own that wait for Redis rather than fail (BullMQ's requirement for blocking clients); in
 * embedded mode the queues in process run the same handlers themselves. Payloads are
 * validated against the job's schema before the handler sees them: a malformed payload can
 * never succeed, so it fails at once without retries.
 */
@Injectable()
export class QueueWorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(QueueWorkerHost.name);
  private readonly workers: Worker[] = [];
  private readonly connections: IORedis[] = [];

  constructor(
    @Inject(JOB_HANDLERS) private readonly handlers: JobHandler[],
    @Inject(WORKER_QUEUES) private readonly queues: QueueName[],
    @Inject(CONFIG) private readonly config: Config,
    @Inject(ALL_QUEUES) private readonly all: AllQueues,
  ) {
    assertHandlers(
      queues,
      handlers.map((h) => ({ queue: JOBS[h.job].queue, name: JOBS[h.job].name })),
    );
  }

  onApplicationBootstrap(): void {
    for (const queue of this.queues) {
      const handlers = this.handlers.filter((h) => JOBS[h.job].queue === queue);
      const concurrency = Math.max(...handlers.map((h) => h.concurrency?.(this.config) ?? 1));
      const port = this.all[queue];
      if (port instanceof InProcessQueue) {
        port.process((job, token) => this.dispatch(handlers, job, token), concurrency);
        continue;
      }
      const connection = createRedisConnection(this.config.REDIS_URL, 'worker');
      logConnectionErrors(connection, this.logger, 'worker Redis connection error', this.config.REDIS_URL);
      this.connections.push(connection);
      const worker = new Worker(queue, (job, token) => this.dispatch(handlers, job, token), {
        connection,
        prefix: this.config.QUEUE_PREFIX,
        concurrency,
        stalledInterval: this.config.WORKER_STALLED_INTERVAL_MS,
        lockDuration: this.config.WORKER_STALLED_INTERVAL_MS,
      });
      worker.on('failed', (job, error) =>
        this.logger.warn(
          { jobId: job?.id, queue, attempt: job?.attemptsMade, err: error.message },
          job && job.attemptsMade >= (job.opts.attempts ?? 1) ? 'job failed for good' : 'job failed; will retry',
        ),
      );
      worker.on('error', (error) => this.logger.warn({ queue, err: error.message }, 'worker error'));
      this.workers.push(worker);
    }
  }

  /** Stops taking jobs and waits for the ones running to finish, before the pools close. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(
      this.queues.map((q) => this.all[q]).flatMap((port) => (port instanceof InProcessQueue ? [port.close()] : [])),
    );
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private async dispatch(handlers: JobHandler[], job: QueueJob, token?: string): Promise<unknown> {
    const handler = handlers.find((h) => JOBS[h.job].name === job.name);
    if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
    const parsed = JOBS[handler.job].schema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid payload for ${job.name}: ${parsed.error.message}`);
    return jobLogContext.run({ jobId: String(job.id), queue: job.queueName, job: job.name }, () =>
      handler.handle(parsed.data as never, job, token),
    );
  }
}

/**
 * Providers that make a module consume `queues` with these handlers; the handlers are
 * providers of that module, so they can use its services.
 */
export function queueWorkerProviders(queues: QueueName[], handlers: Type<JobHandler>[]): Provider[] {
  return [
    ...handlers,
    { provide: WORKER_QUEUES, useValue: queues },
    { provide: JOB_HANDLERS, inject: handlers, useFactory: (...instances: JobHandler[]) => instances },
    QueueWorkerHost,
  ];
}
