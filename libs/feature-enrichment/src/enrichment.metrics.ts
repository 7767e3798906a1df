import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from '@memex/server';

@Injectable()
export class EnrichmentMetrics {
  readonly events: Counter;
  readonly items: Counter<'outcome'>;
  readonly rejected: Counter<'reason'>;
  readonly tokens: Counter<'engine'>;
  readonly cost: Counter<'engine'>;
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
    this.tokens = metrics.counter('memex_enrichment_llm_tokens_total', 'Model tokens spent, by engine', ['engine']);
    this.cost = metrics.counter(
      'memex_enrichment_llm_cost_usd_total',
      'Model spend in US dollars (reported by the engine, or priced by LLM_PRICES), by engine',
      ['engine'],
    );
    this.fallbacks = metrics.counter(
      'memex_enrichment_fallbacks_total',
      'Windows the local engine read instead of the configured model, by reason',
      ['reason'],
    );
    this.windows = metrics.counter('memex_enrichment_windows_total', 'Windows enriched, by engine', ['engine']);
  }
}
