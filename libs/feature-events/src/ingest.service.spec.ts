import type { RawEventRepository, SessionRepository, StoredBatch } from '@memex/db';
import type { EventBatch } from '@memex/domain';
import type { RedactionService } from '@memex/server';
import { fake, fakeCounter } from '../../../test/support/fakes';
import type { EnqueueOutcome, EnrichmentEnqueuer } from './enrichment-enqueuer';
import type { IngestMetrics } from './ingest.metrics';
import { IngestService } from './ingest.service';

const PROJECT = '01JD00000000000000000PROJ1';

function batch(content: string): EventBatch {
  return {
    sessionId: 'claude-session-1',
    events: [{ eventId: 'e1', type: 'prompt', timestamp: '2026-11-26T10:00:00.000Z', content, metadata: {} }],
  } as EventBatch;
}

type Session = Awaited<ReturnType<SessionRepository['findByExternalId']>>;
type Completed = Awaited<ReturnType<SessionRepository['markCompleted']>>;

function setUp({
  stored = { accepted: 0, duplicates: 0, sessionId: undefined } as StoredBatch,
  known = true,
  outcome = 'added' as EnqueueOutcome,
} = {}) {
  const events = fake<RawEventRepository>({ storeBatch: async () => stored }, 'events');
  const sessions = fake<SessionRepository>(
    {
      findByExternalId: async () => (known ? ({ id: 'S1' } as Session) : undefined),
      markCompleted: async () => ({ lastEventSeq: 42 }) as Completed,
    },
    'sessions',
  );
  const enqueuer = fake<EnrichmentEnqueuer>({ afterBatch: async () => outcome, now: async () => outcome }, 'enqueuer');
  const metrics = { eventsAccepted: fakeCounter(), eventsDuplicate: fakeCounter() };
  // The redaction the server runs, reduced to what the spec can see: every text replaced.
  const redaction = fake<RedactionService>(
    {
      events: async <B>(_projectId: string, b: B) =>
        ({ ...b, events: (b as EventBatch).events.map((e) => ({ ...e, content: '[REDACTED:test]' })) }) as B,
    },
    'redaction',
  );
  const service = new IngestService(events, sessions, enqueuer, metrics as unknown as IngestMetrics, redaction);
  return { service, events, sessions, enqueuer, metrics, redaction };
}

describe('IngestService.ingest', () => {
  it('stores the redacted batch, never the one it was sent, then enqueues the session', async () => {
    const { service, events, enqueuer, redaction } = setUp({ stored: { accepted: 1, duplicates: 0, sessionId: 'S1' } });
    const answer = await service.ingest(PROJECT, batch('GH_TOKEN=ghp_secret'));
    expect(answer).toEqual({ accepted: 1, duplicates: 0 });
    expect(redaction.events).toHaveBeenCalledWith(PROJECT, batch('GH_TOKEN=ghp_secret'));
    const [, storedBatch] = events.storeBatch.mock.calls[0]!;
    expect(storedBatch.events[0]!.content).toBe('[REDACTED:test]');
    expect(enqueuer.afterBatch).toHaveBeenCalledWith({ projectId: PROJECT, sessionId: 'S1' });
    // Stored before enqueued: a lost enqueue is recoverable, a lost event is not.
    expect(events.storeBatch.mock.invocationCallOrder[0]).toBeLessThan(
      enqueuer.afterBatch.mock.invocationCallOrder[0]!,
    );
  });

  it('counts accepted and duplicate events', async () => {
    const { service, metrics } = setUp({ stored: { accepted: 2, duplicates: 3, sessionId: 'S1' } });
    await service.ingest(PROJECT, batch('hello'));
    expect(metrics.eventsAccepted.total()).toBe(2);
    expect(metrics.eventsDuplicate.total()).toBe(3);
  });

  it('enqueues nothing when no session was touched', async () => {
    const { service, enqueuer } = setUp({ stored: { accepted: 0, duplicates: 1, sessionId: undefined } });
    await service.ingest(PROJECT, batch('hello'));
    expect(enqueuer.afterBatch).not.toHaveBeenCalled();
  });

  it('does not enqueue when storing fails', async () => {
    const { service, events, enqueuer } = setUp({ stored: { accepted: 0, duplicates: 0, sessionId: 'S1' } });
    events.storeBatch.mockRejectedValueOnce(new Error('connection lost'));
    await expect(service.ingest(PROJECT, batch('hello'))).rejects.toThrow('connection lost');
    expect(enqueuer.afterBatch).not.toHaveBeenCalled();
  });
});

describe('IngestService.complete', () => {
  it('marks the session completed and asks for its enrichment at its newest event', async () => {
    const { service, sessions, enqueuer } = setUp();
    expect(await service.complete(PROJECT, 'claude-session-1')).toEqual({
      sessionId: 'claude-session-1',
      enqueued: true,
    });
    expect(sessions.markCompleted).toHaveBeenCalledWith('S1', expect.any(Date), false);
    expect(enqueuer.now).toHaveBeenCalledWith({ projectId: PROJECT, sessionId: 'S1' }, 42, 'complete');
  });

  it('says the session ended when its client says so, and enqueues a job for its end', async () => {
    const { service, sessions, enqueuer } = setUp();
    await service.complete(PROJECT, 'claude-session-1', true);
    expect(sessions.markCompleted).toHaveBeenCalledWith('S1', expect.any(Date), true);
    // Its own job: a Stop's job for the same event may still be running, having read it before it ended.
    expect(enqueuer.now).toHaveBeenCalledWith({ projectId: PROJECT, sessionId: 'S1' }, 42, 'end');
  });

  it.each([
    ['pending', true],
    ['failed', false],
    ['error', false],
  ] as const)(
    'an enqueue that is %s answers enqueued=%s: true only when a job for the session exists',
    async (outcome, enqueued) => {
      const { service } = setUp({ outcome });
      expect((await service.complete(PROJECT, 'claude-session-1')).enqueued).toBe(enqueued);
    },
  );

  it('refuses a session the project never saw with SESSION_NOT_FOUND', async () => {
    const { service, sessions } = setUp({ known: false });
    await expect(service.complete(PROJECT, 'nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(sessions.markCompleted).not.toHaveBeenCalled();
  });
});
