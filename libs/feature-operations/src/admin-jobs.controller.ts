import { Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { DomainError, queryInteger } from '@memex/domain';
import { QUEUES, type QueueJob, type QueueName } from '@memex/queue';
import { ALL_QUEUES, AdminTokenGuard, ZodPipe, queueCall, type AllQueues } from '@memex/server';

const STATES = ['failed', 'waiting', 'delayed', 'active', 'completed'] as const;

const queueNameSchema = z.enum(Object.values(QUEUES) as [QueueName, ...QueueName[]]);

const listQuerySchema = z.strictObject({
  queue: queueNameSchema.default(QUEUES.enrichment),
  state: z.enum(STATES).default('failed'),
  limit: queryInteger(1, 500).default(50),
});

const jobParamsSchema = z.strictObject({
  queue: queueNameSchema,
  jobId: z.string().min(1).max(300),
});

function summary(job: QueueJob) {
  return {
    id: job.id,
    name: job.name,
    data: job.data as unknown,
    attemptsMade: job.attemptsMade,
    failedReason: job.failedReason ?? null,
    returnValue: (job.returnvalue as unknown) ?? null,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}

/**
 * Operators see jobs by state (failed ones with their reason) and send failed ones round again.
 * Every read and write of a queue is a `queueCall`: 503 while Redis is away, as the queue counts are.
 */
@Controller('api/v2/admin/jobs')
@UseGuards(AdminTokenGuard)
export class AdminJobsController {
  constructor(@Inject(ALL_QUEUES) private readonly queues: AllQueues) {}

  @Get()
  async list(@Query(new ZodPipe(listQuerySchema)) query: z.infer<typeof listQuerySchema>) {
    const queue = this.queues[query.queue];
    const jobs = await queueCall(() => queue.getJobs([query.state], 0, query.limit - 1));
    return { queue: query.queue, state: query.state, jobs: jobs.map(summary) };
  }

  @Post(':queue/:jobId/retry')
  @HttpCode(202)
  async retry(@Param(new ZodPipe(jobParamsSchema)) params: z.infer<typeof jobParamsSchema>) {
    const queue = this.queues[params.queue];
    const job = await queueCall(() => queue.getJob(params.jobId));
    if (!job) throw new DomainError('NOT_FOUND', `no job ${params.jobId} in ${params.queue}`);
    const state = await queueCall(() => job.getState());
    if (state !== 'failed') {
      throw new DomainError('CONFLICT', `job ${params.jobId} is ${state}; only failed jobs can be retried`, { state });
    }
    await queueCall(() => job.retry('failed'), 'the job could not be sent round again');
    return { id: job.id, state: 'waiting' };
  }
}
