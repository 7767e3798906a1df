import { Inject, Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { QUEUES } from '@memex/queue';
import { ALL_QUEUES, MetricsRegistry, withDeadline, type AllQueues } from '@memex/server';

const DEPTH_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

@Injectable()
export class IngestMetrics {
  readonly eventsAccepted: Counter;
  readonly eventsDuplicate: Counter;
  readonly enqueueFailures: Counter;
  readonly reconciled: Counter;

  constructor(metrics: MetricsRegistry, @Inject(ALL_QUEUES) queues: AllQueues) {
    const queue = queues[QUEUES.enrichment];
    this.eventsAccepted = metrics.counter('memex_ingest_events_accepted_total', 'Events stored');
    this.eventsDuplicate = metrics.counter(
      'memex_ingest_events_duplicate_total',
      'Events not stored because their eventId was already stored for the project',
    );
    this.enqueueFailures = metrics.counter(
      'memex_ingest_enqueue_failures_total',
      'Enrichment enqueues that failed (the reconciler makes them good)',
    );
    this.reconciled = metrics.counter('memex_ingest_reconciled_total', 'Sessions re-enqueued by the reconciler');
    metrics.gauge('memex_queue_depth', 'Jobs in a queue by state', ['queue', 'state'], async (gauge) => {
      try {
        const counts = await withDeadline(queue.getJobCounts(...DEPTH_STATES), 1000);
        for (const state of DEPTH_STATES) gauge.set({ queue: queue.name, state }, counts[state] ?? 0);
      } catch {
        // Redis away: the scrape still answers, without a depth this time.
      }
    });
  }
}
