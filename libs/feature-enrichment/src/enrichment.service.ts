import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Config } from '@memex/config';
import { EnrichmentRepository, MemoryItemRepository } from '@memex/db';
import {
  EvidenceIndex,
  currentTurn,
  LocalEngine,
  selectRelatedHints,
  takeWindow,
  type EngineEvent,
  type EngineName,
  type EngineOutput,
  type RejectReason,
  type VerifiedItem,
  type WindowCounts,
  NO_COUNTS,
  WINDOW_COUNTS,
} from '@memex/enrichment';
import { BACKGROUND_PACE, CONFIG, type BackgroundPace } from '@memex/server';
import { EnrichmentMetrics } from './enrichment.metrics';
import { EntityRecorder } from './entity-recorder';
import { WindowWriter } from './window-writer';
import { ModelReader, type Fallback } from './model-reader';

export interface EnrichmentReport extends WindowCounts {
  windows: number;
  events: number;
  rejected: number;
  rejectedBy: Partial<Record<RejectReason, number>>;
  /** The engine configured: local, openai or claude-code. */
  engine: EngineName;
  /** Why the local engine read some windows instead of the configured model. */
  fallback: Fallback | null;
  /** Windows whose model answer a run before this one had already paid for (a redelivered job). */
  replayed: number;
  tokens: number;
  /** Model calls made, repairs included. */
  modelCalls: number;
  /** Windows another run wrote first; re-read, never written twice. */
  raced: number;
  /** Another run held the session: this one read nothing, and its job comes back later. */
  busy: boolean;
}

/** Hints read per window before picking the related few; recent items first. */
const HINT_POOL = 2000;
/** Events read back before a window to find where its turn began. */
const TURN_CONTEXT_EVENTS = 200;
/** A job stops after this many windows and leaves the rest to the job that follows. */
const MAX_WINDOWS_PER_JOB = 100;
/**
 * A run holds its session for this long and renews it while it works, whatever its model's
 * timeout; a run that died (kill -9, a lost node) holds it no longer than this, so the job the
 * reconciler sends after a restart waits seconds, not minutes.
 */
const LEASE_MS = 6_000;
const LEASE_RENEW_MS = 2_000;

@Injectable()
export class EnrichmentService {
  private readonly logger = new Logger(EnrichmentService.name);
  private readonly local = new LocalEngine();

  constructor(
    private readonly store: EnrichmentRepository,
    private readonly items: MemoryItemRepository,
    private readonly windows: WindowWriter,
    private readonly models: ModelReader,
    private readonly metrics: EnrichmentMetrics,
    private readonly entities: EntityRecorder,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(BACKGROUND_PACE) private readonly pace: BackgroundPace,
  ) {}

  /**
   * Enriches a session's events past its cursor, window by window, until it has caught up.
   * Each window's items, cursor and revision are written in one transaction; a window some
   * other run wrote first is dropped and the events after it read again.
   */
  async enrichSession(projectId: string, sessionId: string, runId: string): Promise<EnrichmentReport> {
    // One run reads a session at a time: two would each pay for the same window's model call.
    if (!(await this.store.claimLease(sessionId, runId, LEASE_MS))) return { ...this.emptyReport(), busy: true };
    const renew = setInterval(() => {
      this.store.claimLease(sessionId, runId, LEASE_MS).catch((error: unknown) => {
        this.logger.warn({ sessionId, runId, err: (error as Error).message }, 'enrichment lease not renewed');
      });
    }, LEASE_RENEW_MS);
    renew.unref();
    try {
      return await this.catchUp(projectId, sessionId, runId);
    } finally {
      clearInterval(renew);
      // Left in place if this fails: it expires on its own.
      await this.store.releaseLease(sessionId, runId).catch(() => undefined);
    }
  }

  private emptyReport(): EnrichmentReport {
    return {
      windows: 0,
      events: 0,
      ...NO_COUNTS,
      rejected: 0,
      rejectedBy: {},
      engine: this.models.engine?.name ?? 'local',
      fallback: null,
      replayed: 0,
      tokens: 0,
      modelCalls: 0,
      raced: 0,
      busy: false,
    };
  }

  private async catchUp(projectId: string, sessionId: string, runId: string): Promise<EnrichmentReport> {
    const report = this.emptyReport();
    // What this job last wrote, so the next window's turn is read from memory, not the database.
    let written: { cursor: number; events: EngineEvent[] } | undefined;
    for (let i = 0; i < MAX_WINDOWS_PER_JOB; i += 1) {
      await this.pace.yield();
      const session = await this.store.session(projectId, sessionId);
      if (!session) break;
      // Caught up, unless the session ended where an earlier window left its last turn open (a
      // Stop, then SessionEnd with nothing new): the local engine reads that turn once, now.
      const caughtUp = session.cursor >= session.lastEventSeq;
      const endToRead = session.endedSeq === session.cursor && session.endReadSeq !== session.endedSeq;
      if (caughtUp && !(endToRead && !this.models.engine)) break;
      const window = caughtUp
        ? []
        : takeWindow(await this.store.eventsAfter(sessionId, session.cursor, this.config.ENRICHMENT_WINDOW_EVENTS), {
            maxEvents: this.config.ENRICHMENT_WINDOW_EVENTS,
            maxTokens: this.config.ENRICHMENT_WINDOW_TOKENS,
          });
      if (!caughtUp && window.length === 0) break;

      // A window that reaches where the session ended, its newest event (not an end from before
      // it was resumed), holds the end of its last turn, however the window was cut.
      const ended =
        session.endedSeq === session.lastEventSeq && (window.at(-1)?.seq ?? session.cursor) === session.endedSeq;
      const read = await this.read(projectId, sessionId, { window, ended }, session.cursor, written, report);
      const { output, context } = read;
      const last = window.at(-1) ?? context.at(-1);
      if (!last) break;

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

      const applied = await this.windows.write(
        {
          projectId,
          sessionId,
          expectedCursor: session.cursor,
          newCursor: last.seq,
          endRead: ended,
          windowEndedAt: last.timestamp,
          actor: `enrichment:${read.engine}`,
          runId,
        },
        verified,
        { retracted: output.retracted ?? [], sessionCap: this.config.ENRICHMENT_SESSION_ITEMS },
      );
      if (applied.raced) {
        report.raced += 1;
        continue;
      }
      written = { cursor: last.seq, events: [...context, ...window] };
      await this.entities.afterWindow(projectId, sessionId, last.seq, last.timestamp);
      report.windows += 1;
      report.events += window.length;
      for (const count of WINDOW_COUNTS) {
        report[count] += applied[count];
        this.metrics.items.inc({ outcome: count }, applied[count]);
      }
      this.metrics.windows.inc({ engine: read.engine });
      this.metrics.events.inc(window.length);
    }
    return report;
  }

  /**
   * A window read by the configured model, or by the local engine when there is none, when a
   * budget is spent, or when the model failed it. The local engine reads a turn whole: the part
   * of it enriched by earlier windows comes along as context.
   */
  private async read(
    projectId: string,
    sessionId: string,
    { window, ended }: { window: EngineEvent[]; ended: boolean },
    cursor: number,
    written: { cursor: number; events: EngineEvent[] } | undefined,
    report: EnrichmentReport,
  ): Promise<{ engine: EngineName; output: EngineOutput; context: EngineEvent[] }> {
    if (this.models.engine) {
      const model = await this.models.read(projectId, sessionId, window, async () =>
        this.config.ENRICHMENT_MAX_HINTS > 0
          ? selectRelatedHints(
              await this.items.liveHints(projectId, HINT_POOL),
              window,
              this.config.ENRICHMENT_MAX_HINTS,
            )
          : [],
      );
      if ('output' in model) {
        report.tokens += model.output.usage.totalTokens;
        report.modelCalls += model.output.calls;
        if (model.replayed) report.replayed += 1;
        return { engine: model.engine, output: model.output, context: [] };
      }
      report.fallback = model.fallback;
      report.tokens += model.usage?.totalTokens ?? 0;
      report.modelCalls += model.calls;
    }
    const context = currentTurn(
      written?.cursor === cursor
        ? written.events.slice(-TURN_CONTEXT_EVENTS)
        : await this.store.eventsUpTo(sessionId, cursor, TURN_CONTEXT_EVENTS),
    );
    // The project's live items, so a point said again in a later window reinforces its item.
    const hints = await this.items.liveHints(projectId, HINT_POOL);
    return { engine: 'local', output: await this.local.extract({ events: window, context, hints, ended }), context };
  }
}
