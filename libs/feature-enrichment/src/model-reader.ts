import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Config } from '@memex/config';
import { ModelUsageRepository } from '@memex/db';
import {
  ChatUnavailableError,
  MalformedModelOutputError,
  budgetSpent,
  costOf,
  estimateCall,
  withInFlight,
  parseModelOutput,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
  type ExistingHint,
  type LlmEngine,
  type ModelEngineName,
  type TokenUsage,
} from '@memex/enrichment';
import { CONFIG, throttledWarning } from '@memex/server';
import { modelEngine } from '@memex/models';
import { EnrichmentMetrics } from './enrichment.metrics';

/** Why a window a model would have read went to the local engine instead. */
export type Fallback = 'daily-token-budget' | 'daily-cost-budget' | 'malformed-output' | 'model-unavailable';

export type ModelRead =
  | { engine: ModelEngineName; output: EngineOutput; replayed: boolean }
  | { fallback: Fallback; usage: TokenUsage | undefined; calls: number };

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The configured model's reading of a window, paid for once: within the project's daily
 * budgets, its answer kept before anything is written (a job redelivered after a crash reads
 * it back), its spend recorded as it is made, and every failure a reason for the local
 * engine to read the window instead of the job failing.
 */
@Injectable()
export class ModelReader implements OnModuleInit {
  readonly engine: LlmEngine | undefined;
  private readonly logger = new Logger(ModelReader.name);
  private readonly unavailable = throttledWarning(this.logger, 'the model could not be used; the local engine reads');

  constructor(
    private readonly usage: ModelUsageRepository,
    private readonly metrics: EnrichmentMetrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.engine = modelEngine(config);
  }

  /** Says at start which engine reads sessions; `memex doctor` asks it a question when a person wants to know more. */
  onModuleInit(): void {
    this.logger.log(
      this.engine ? { engine: this.engine.name, model: this.engine.model } : { engine: 'local' },
      'enrichment engine',
    );
  }

  async read(
    projectId: string,
    sessionId: string,
    window: readonly EngineEvent[],
    hints: () => Promise<readonly ExistingHint[]>,
  ): Promise<ModelRead> {
    const engine = this.engine!;
    const first = window[0]!.seq;
    const last = window[window.length - 1]!.seq;
    const kept = await this.usage.answerFor(sessionId, first, last);
    if (kept) {
      const parsed = parseModelOutput(kept.answer);
      this.logger.log({ sessionId, first, last, engine: kept.engine }, 'window answered before; its answer read back');
      if (parsed.ok)
        return { engine: kept.engine, output: { ...this.zero(), candidates: parsed.items }, replayed: true };
    }

    // The call holds its estimate against the day's budgets while in flight, so calls made at
    // once by other workers see it: the budget is checked with them counted.
    const budget = { dailyTokens: this.config.LLM_DAILY_TOKENS, dailyCostUsd: this.config.LLM_DAILY_COST_USD };
    const estimate = estimateCall(
      window.reduce((chars, e) => chars + e.content.length, 0),
      this.config.LLM_PRICES[engine.model],
    );
    const held = await this.usage.reserve(projectId, utcDay(new Date()), estimate, this.holdMs(), (spent, inFlight) =>
      budgetSpent(withInFlight(spent, inFlight), budget),
    );
    if ('refused' in held) return this.fallBack(held.refused, undefined, 0);

    const input: EngineInput = { events: window, hints: await hints() };
    const started = Date.now();
    try {
      const output = await engine.extract(input);
      const costUsd = await this.record(projectId, output.usage, output.calls);
      this.logger.log(
        {
          sessionId,
          engine: engine.name,
          model: engine.model,
          events: window.length,
          inputChars: output.inputChars,
          promptTokens: output.usage.promptTokens,
          completionTokens: output.usage.completionTokens,
          costUsd,
          calls: output.calls,
          ms: Date.now() - started,
        },
        'model read a window',
      );
      await this.usage.keepAnswer({
        projectId,
        sessionId,
        firstSeq: first,
        lastSeq: last,
        engine: engine.name,
        model: engine.model,
        inputChars: output.inputChars ?? 0,
        answer: output.answer ?? '{"items":[]}',
        tokens: output.usage.totalTokens,
        costUsd: costUsd ?? null,
      });
      return { engine: engine.name, output, replayed: false };
    } catch (error) {
      if (error instanceof MalformedModelOutputError) {
        await this.record(projectId, error.usage, 2);
        return this.fallBack('malformed-output', error.usage, 2);
      }
      if (error instanceof ChatUnavailableError) {
        this.unavailable(error);
        if (error.usage) await this.record(projectId, error.usage, 1);
        return this.fallBack('model-unavailable', error.usage, error.usage ? 1 : 0);
      }
      throw error;
    } finally {
      // Its real spend is recorded (or there was none); left in place if this fails, it expires.
      await this.usage.release(held.id).catch(() => undefined);
    }
  }

  /** How long a call may hold its estimate: its longest run, retries and a repair round included. */
  private holdMs(): number {
    const c = this.config;
    return Math.max(c.LLM_TIMEOUT_MS * (c.LLM_MAX_RETRIES + 1) * 2, c.CLAUDE_CODE_TIMEOUT_MS) + 60_000;
  }

  private zero(): EngineOutput {
    return { candidates: [], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, calls: 0 };
  }

  private fallBack(fallback: Fallback, usage: TokenUsage | undefined, calls: number): ModelRead {
    this.metrics.fallbacks.inc({ reason: fallback });
    return { fallback, usage, calls };
  }

  /** Spend, as soon as it is made: tokens, and money when the engine reports it or a price is set. */
  private async record(projectId: string, usage: TokenUsage, calls: number): Promise<number | undefined> {
    const engine = this.engine!;
    const costUsd = costOf(usage, this.config.LLM_PRICES[engine.model]);
    this.metrics.tokens.inc({ engine: engine.name }, usage.totalTokens);
    if (costUsd !== undefined) this.metrics.cost.inc({ engine: engine.name }, costUsd);
    await this.usage.record(projectId, utcDay(new Date()), engine.name, {
      tokens: usage.totalTokens,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      costUsd: costUsd ?? null,
      calls,
    });
    return costUsd;
  }
}
