import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import type { Metric } from 'prom-client';
import { ALL_QUEUES, AdminTokenGuard, MetricsRegistry, queueCall, type AllQueues } from '@memex/server';

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused', 'prioritized'] as const;

/** The counters the dashboard's health page reads, by the name Prometheus scrapes them under. */
const SUMMARY = {
  ingest: {
    eventsAccepted: 'memex_ingest_events_accepted_total',
    eventsDuplicate: 'memex_ingest_events_duplicate_total',
    enqueueFailures: 'memex_ingest_enqueue_failures_total',
  },
  enrichment: {
    events: 'memex_enrichment_events_total',
    windows: 'memex_enrichment_windows_total',
    items: 'memex_enrichment_items_total',
    rejected: 'memex_enrichment_items_rejected_total',
    fallbacks: 'memex_enrichment_fallbacks_total',
  },
} as const;

/** A counter's value summed over its labels, or null when this process does not run what counts it. */
async function total(metric: Metric | undefined): Promise<number | null> {
  if (!metric) return null;
  const { values } = await metric.get();
  return values.reduce((sum, v) => sum + v.value, 0);
}

/** Operators' view of the machinery: queue depths and this process's ingest and enrichment counters. */
@Controller('api/v2/admin')
@UseGuards(AdminTokenGuard)
export class AdminHealthController {
  constructor(
    @Inject(ALL_QUEUES) private readonly queues: AllQueues,
    private readonly metrics: MetricsRegistry,
  ) {}

  /** How many jobs each queue holds in each state (the admin jobs API lists them). */
  @Get('queues')
  async queueCounts() {
    const queues = await Promise.all(
      Object.entries(this.queues).map(async ([name, queue]) => ({
        name,
        counts: await queueCall(() => queue.getJobCounts(...JOB_STATES)),
      })),
    );
    return { queues };
  }

  /**
   * The counters of this process since it started, summed over their labels. A client
   * takes two readings and divides by the time between them for a rate. A counter this
   * process does not have (brain-api alone runs neither ingest nor enrichment) is null.
   */
  @Get('metrics')
  async summary() {
    const read = async (names: Record<string, string>) =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(names).map(async ([key, name]) => [
            key,
            await total(this.metrics.registry.getSingleMetric(name)),
          ]),
        ),
      ) as Record<string, number | null>;
    return {
      sampledAt: new Date().toISOString(),
      uptimeSeconds: Math.round(process.uptime()),
      ingest: await read(SUMMARY.ingest),
      enrichment: await read(SUMMARY.enrichment),
    };
  }
}
