import { Injectable } from '@nestjs/common';
import { RawEventRepository, SessionRepository } from '@memex/db';
import { DomainError, type AcceptedBatch, type EventBatch } from '@memex/domain';
import { RedactionService } from '@memex/server';
import { EnrichmentEnqueuer } from './enrichment-enqueuer';
import { IngestMetrics } from './ingest.metrics';

@Injectable()
export class IngestService {
  constructor(
    private readonly events: RawEventRepository,
    private readonly sessions: SessionRepository,
    private readonly enqueuer: EnrichmentEnqueuer,
    private readonly metrics: IngestMetrics,
    private readonly redaction: RedactionService,
  ) {}

  /**
   * Secrets out first: nothing unredacted reaches a row, a job or a model. Then commit, then
   * enqueue: a lost enqueue is recoverable, a lost event is not.
   */
  async ingest(projectId: string, batch: EventBatch): Promise<AcceptedBatch> {
    const redacted = await this.redaction.events(projectId, batch);
    const stored = await this.events.storeBatch(projectId, redacted, new Date());
    this.metrics.eventsAccepted.inc(stored.accepted);
    this.metrics.eventsDuplicate.inc(stored.duplicates);
    if (stored.sessionId) await this.enqueuer.afterBatch({ projectId, sessionId: stored.sessionId });
    return { accepted: stored.accepted, duplicates: stored.duplicates };
  }

  async complete(
    projectId: string,
    externalSessionId: string,
    ended = false,
  ): Promise<{ sessionId: string; enqueued: boolean }> {
    const session = await this.sessions.findByExternalId(projectId, externalSessionId);
    if (!session) {
      throw new DomainError('SESSION_NOT_FOUND', `no session ${externalSessionId} in this project`, {
        sessionId: externalSessionId,
      });
    }
    const completed = await this.sessions.markCompleted(session.id, new Date(), ended);
    const outcome = await this.enqueuer.now(
      { projectId, sessionId: session.id },
      completed.lastEventSeq,
      ended ? 'end' : 'complete',
    );
    // True when a job for the session's current state exists now: added, or already waiting.
    return { sessionId: externalSessionId, enqueued: outcome === 'added' || outcome === 'pending' };
  }
}
