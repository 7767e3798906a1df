import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Config } from '@memex/config';
import {
  EnrichmentRepository,
  MemoryItemRepository,
  NO_COUNTS,
  WINDOW_COUNTS,
  type VerifiedItem,
  type WindowCounts,
} from '@memex/db';
import {
  EvidenceIndex,
  LlmEngine,
  currentTurn,
  LocalEngine,
  MalformedModelOutputError,
  selectRelatedHints,
  takeWindow,
  type EngineEvent,
  type EngineInput,
  type EnrichmentEngine,
  type RejectReason,
} from '@memex/enrichment';
import { CONFIG } from '@memex/server';
import { EnrichmentMetrics } from './enrichment.metrics';
import { OpenAiChat, llmConfigured } from './openai-chat';

export interface EnrichmentReport extends WindowCounts {
  windows: number;
  events: number;
  rejected: number;
  rejectedBy: Partial<Record<RejectReason, number>>;
  engine: 'llm' | 'local';
  /** Why the LLM was not used for some windows, when it was configured. */
  fallback: string | null;
  tokens: number;
  llmCalls: number;
  /** Windows another run wrote first; re-read, never written twice. */
  raced: number;
}

/** Hints read per window before picking the related few; recent items first. */
const HINT_POOL = 2000;
/** Events read back before a window to find where its turn began. */
const TURN_CONTEXT_EVENTS = 200;
/** A job stops after this many windows and leaves the rest to the job that follows. */
const MAX_WINDOWS_PER_JOB = 100;

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

@Injectable()
export class EnrichmentService {
  private readonly logger = new Logger(EnrichmentService.name);
  private readonly local = new LocalEngine();
  private readonly llm: EnrichmentEngine | undefined;

  constructor(
    private readonly store: EnrichmentRepository,
    private readonly items: MemoryItemRepository,
    private readonly metrics: EnrichmentMetrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.llm = llmConfigured(config) ? new LlmEngine(new OpenAiChat(config)) : undefined;
  }

  /** The LLM when configured and the project is within its daily budget; otherwise local. */
  private async engineFor(
    projectId: string,
    now: Date,
  ): Promise<{ engine: EnrichmentEngine; fallback: string | null }> {
    if (!this.llm) return { engine: this.local, fallback: null };
    const budget = this.config.LLM_DAILY_TOKENS;
    if (budget > 0 && (await this.store.tokensUsed(projectId, utcDay(now))) >= budget) {
      this.metrics.fallbacks.inc({ reason: 'daily-token-budget' });
      return { engine: this.local, fallback: 'daily-token-budget' };
    }
    return { engine: this.llm, fallback: null };
  }

  /**
   * Enriches a session's events past its cursor, window by window, until it has caught up.
   * Each window's items, cursor and revision are written in one transaction; a window some
   * other run wrote first is dropped and the events after it read again.
   */
  async enrichSession(projectId: string, sessionId: string, runId: string): Promise<EnrichmentReport> {
    const report: EnrichmentReport = {
      windows: 0,
      events: 0,
      ...NO_COUNTS,
      rejected: 0,
      rejectedBy: {},
      engine: this.llm ? 'llm' : 'local',
      fallback: null,
      tokens: 0,
      llmCalls: 0,
      raced: 0,
    };
    // What this job last wrote, so the next window's turn is read from memory, not the database.
    let written: { cursor: number; events: EngineEvent[] } | undefined;
    for (let i = 0; i < MAX_WINDOWS_PER_JOB; i += 1) {
      const session = await this.store.session(projectId, sessionId);
      if (!session || session.cursor >= session.lastEventSeq) break;
      const pending = await this.store.eventsAfter(sessionId, session.cursor, this.config.ENRICHMENT_WINDOW_EVENTS);
      const window = takeWindow(pending, {
        maxEvents: this.config.ENRICHMENT_WINDOW_EVENTS,
        maxTokens: this.config.ENRICHMENT_WINDOW_TOKENS,
      });
      if (window.length === 0) break;

      const { engine, fallback } = await this.engineFor(projectId, new Date());
      if (fallback) report.fallback = fallback;
      const hints =
        engine.name === 'llm' && this.config.ENRICHMENT_MAX_HINTS > 0
          ? selectRelatedHints(
              await this.items.liveHints(projectId, HINT_POOL),
              window,
              this.config.ENRICHMENT_MAX_HINTS,
            )
          : [];
      // The local engine reads a turn whole: the part of it enriched by earlier windows comes along.
      const context =
        engine.name !== 'local'
          ? []
          : currentTurn(
              written?.cursor === session.cursor
                ? written.events.slice(-TURN_CONTEXT_EVENTS)
                : await this.store.eventsUpTo(sessionId, session.cursor, TURN_CONTEXT_EVENTS),
            );
      const output = await this.extract(engine, projectId, { events: window, context, hints }, report);

      const index = new EvidenceIndex([...context, ...window]);
      const verified: VerifiedItem[] = [];
      for (const candidate of output.candidates) {
        const result = index.verify(candidate);
        if (result.ok) {
          verified.push({ candidate, spans: result.spans });
        } else {
          report.rejected += 1;
          report.rejectedBy[result.reason] = (report.rejectedBy[result.reason] ?? 0) + 1;
          this.metrics.rejected.inc({ reason: result.reason });
          // Event content stays out of the log: the reason and the ids say enough.
          this.logger.log(
            { sessionId, runId, reason: result.reason, detail: result.detail, type: candidate.type },
            'item rejected',
          );
        }
      }

      const last = window[window.length - 1]!;
      const applied = await this.items.applyWindow({
        projectId,
        sessionId,
        expectedCursor: session.cursor,
        newCursor: last.seq,
        items: verified,
        windowEndedAt: last.timestamp,
        actor: `enrichment:${engine.name}`,
        runId,
        sessionCap: this.config.ENRICHMENT_SESSION_ITEMS,
        retracted: output.retracted ?? [],
      });
      if (applied.raced) {
        report.raced += 1;
        continue;
      }
      written = { cursor: last.seq, events: [...context, ...window] };
      report.windows += 1;
      report.events += window.length;
      for (const count of WINDOW_COUNTS) {
        report[count] += applied[count];
        this.metrics.items.inc({ outcome: count }, applied[count]);
      }
      this.metrics.windows.inc({ engine: engine.name });
      this.metrics.events.inc(window.length);
    }
    return report;
  }

  /** Runs the engine, recording the tokens it spent even when its answer is unusable. */
  private async extract(engine: EnrichmentEngine, projectId: string, input: EngineInput, report: EnrichmentReport) {
    const record = async (tokens: number, calls: number) => {
      if (engine.name !== 'llm') return;
      report.tokens += tokens;
      report.llmCalls += calls;
      this.metrics.tokens.inc(tokens);
      await this.store.addTokens(projectId, utcDay(new Date()), tokens, calls);
    };
    try {
      const output = await engine.extract(input);
      await record(output.usage.totalTokens, output.calls);
      return output;
    } catch (error) {
      if (error instanceof MalformedModelOutputError) await record(error.usage.totalTokens, 2);
      throw error;
    }
  }
}
