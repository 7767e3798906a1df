import type { QueueName, QueuePort } from '@memex/queue';

/** Every queue of the registry by name, for views of them all (BullMQ queues or queues in process). */
export const ALL_QUEUES = Symbol('ALL_QUEUES');
export type AllQueues = Record<QueueName, QueuePort>;
