import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@memex/server';

@Injectable()
export class HygieneMetrics {
  readonly passes;
  readonly changes;
  readonly passSeconds;

  constructor(metrics: MetricsRegistry) {
    this.passes = metrics.counter('memex_hygiene_passes_total', 'Hygiene passes completed, by mode', ['mode']);
    this.changes = metrics.counter(
      'memex_hygiene_changes_total',
      'Lifecycle changes made or planned, by rule and mode',
      ['rule', 'mode'],
    );
    this.passSeconds = metrics.histogram(
      'memex_hygiene_pass_duration_seconds',
      'Time of one hygiene pass over a project',
      [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30],
    );
  }
}
