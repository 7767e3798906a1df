import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from '@memex/server';

@Injectable()
export class EnrichmentMetrics {
  readonly events: Counter;
  readonly items: Counter<'outcome'>;
  readonly rejected: Counter<'reason'>;
  readonly tokens: Counter;
  readonly fallbacks: Counter<'reason'>;
  readonly windows: Counter<'engine'>;

  constructor(metrics: MetricsRegistry) {
    this.events = metrics.counter('memex_enrichment_events_total', 'Events enriched (the cursor moved past them)');
    this.items = metrics.counter('memex_enrichment_items_total', 'Items written, by outcome', ['outcome']);
    this.rejected = metrics.counter(
      'memex_enrichment_items_rejected_total',
      'Proposed items rejected by evidence verification, by reason',
      ['reason'],
    );
    this.tokens = metrics.counter('memex_enrichment_llm_tokens_total', 'LLM tokens spent');
    this.fallbacks = metrics.counter(
      'memex_enrichment_fallbacks_total',
      'Windows enriched by the local engine instead of the LLM, by reason',
      ['reason'],
    );
    this.windows = metrics.counter('memex_enrichment_windows_total', 'Windows enriched, by engine', ['engine']);
  }
}
