import type { Queue } from 'bullmq';
import type { QueueName } from '@memex/queue';

/** Every queue of the registry by name (`Record<QueueName, Queue>`), for views of them all. */
export const ALL_QUEUES = Symbol('ALL_QUEUES');
export type AllQueues = Record<QueueName, Queue>;
