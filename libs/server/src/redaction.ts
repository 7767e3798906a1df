import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Counter } from 'prom-client';
import type { Config } from '@memex/config';
import { Redactor, redactEventBatch, type RedactionCounts } from '@memex/redaction';
import { CONFIG } from './config.module';
import { MetricsRegistry } from './metrics';

/**
 * Redaction gives way to the event loop after this long (see RedactionSlice): a batch of
 * 48 events of 99,000 characters is redacted in turns, with `/health/live` and other requests
 * answered between them.
 */
const REDACTION_SLICE_MS = 10;

/** Whose text it is when operators send it (project names, decisions on any project's proposals). */
export const OPERATOR_SCOPE = 'operator';

/**
 * Redaction of what clients send, before it is stored, logged or sent on: the one Redactor
 * of the process (built-in rules, REDACT_EXTRA_PATTERNS, REDACT_ALLOW), with every
 * replacement counted by rule in `memex_redactions_total`. Callers name the project (or
 * OPERATOR_SCOPE) whose text it is, but no metric carries it: a scrape would list every
 * project id with the secrets its sessions leaked, and a label per project grows without bound.
 */
@Injectable()
export class RedactionService implements OnModuleInit {
  readonly redactor: Redactor;
  private readonly redactions: Counter<'rule'>;

  constructor(@Inject(CONFIG) config: Config, metrics: MetricsRegistry) {
    this.redactor = new Redactor(
      { extraPatterns: config.REDACT_EXTRA_PATTERNS, allow: config.REDACT_ALLOW },
      { pause: () => new Promise<void>((resolve) => setImmediate(resolve)), sliceMs: REDACTION_SLICE_MS },
    );
    this.redactions = metrics.counter(
      'memex_redactions_total',
      'Secrets replaced by a placeholder before storage, by rule',
      ['rule'],
    );
  }

  /** The rule library is loaded at start, not by the first request holding a secret. */
  async onModuleInit(): Promise<void> {
    await this.redactor.warm();
  }

  /** A batch of events: content, metadata and branch. */
  async events<B extends Parameters<typeof redactEventBatch>[1]>(projectId: string, batch: B): Promise<B> {
    const { value, counts } = await redactEventBatch(this.redactor, batch);
    this.count(projectId, counts);
    return value;
  }

  /** Any JSON a client sent (an item, an edit, a reason): every string in it. */
  async value<T>(projectId: string, value: T): Promise<T> {
    const { value: redacted, counts } = await this.redactor.value(value);
    this.count(projectId, counts);
    return redacted;
  }

  async text(projectId: string, text: string): Promise<string> {
    const { value, counts } = await this.redactor.text(text);
    this.count(projectId, counts);
    return value;
  }

  count(_scope: string, counts: RedactionCounts): void {
    for (const [rule, n] of Object.entries(counts)) this.redactions.inc({ rule }, n);
  }
}
