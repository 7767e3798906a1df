import type { Config } from '@memex/config';
import type { SessionRepository } from '@memex/db';
import { fake, fakeCounter } from '../../../test/support/fakes';
import type { EnqueueOutcome, EnrichmentEnqueuer } from './enrichment-enqueuer';
import { EnqueueReconciler } from './enqueue-reconciler';
import type { IngestMetrics } from './ingest.metrics';

type Lagging = Awaited<ReturnType<SessionRepository['findLagging']>>[number];

const NOW = new Date('2026-11-26T10:00:00Z');

function lagging(n: number, from = 0): Lagging[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `S${from + i}`,
    projectId: 'P1',
    lastEventSeq: 100 + from + i,
    lastEventAt: new Date(NOW.getTime() - 600_000 + from + i),
  })) as Lagging[];
}

function setUp(pages: Lagging[][], outcome: (sessionId: string) => EnqueueOutcome = () => 'added') {
  const sessions = fake<SessionRepository>({ findLagging: async () => pages.shift() ?? [] }, 'sessions');
  const enqueuer = fake<EnrichmentEnqueuer>({ now: async (ref) => outcome(ref.sessionId) }, 'enqueuer');
  const metrics = { reconciled: fakeCounter() };
  const reconciler = new EnqueueReconciler(
    sessions,
    enqueuer,
    metrics as unknown as IngestMetrics,
    {
      RECONCILE_GRACE_MS: 30_000,
    } as Config,
  );
  return { reconciler, sessions, enqueuer, reconciled: metrics.reconciled };
}

describe('EnqueueReconciler', () => {
  it('asks for each session quiet past the grace period, at its newest event', async () => {
    const { reconciler, sessions, enqueuer, reconciled } = setUp([lagging(2)]);
    expect(await reconciler.runOnce(NOW)).toBe(2);
    expect(sessions.findLagging).toHaveBeenCalledWith(new Date(NOW.getTime() - 30_000), 500, undefined);
    expect(enqueuer.now).toHaveBeenCalledWith({ projectId: 'P1', sessionId: 'S0' }, 100, 'reconcile');
    expect(reconciled.total()).toBe(2);
  });

  it('pages through every lagging session after the last one seen, so a stuck few never hide the rest', async () => {
    const first = lagging(500);
    const { reconciler, sessions } = setUp([first, lagging(3, 500)]);
    expect(await reconciler.runOnce(NOW)).toBe(503);
    const last = first[499]!;
    expect(sessions.findLagging).toHaveBeenLastCalledWith(expect.any(Date), 500, {
      lastEventAt: last.lastEventAt,
      id: last.id,
    });
  });

  it('counts only the jobs it added: one waiting or failed for good is not a re-enqueue', async () => {
    const outcomes: Record<string, EnqueueOutcome> = { S0: 'added', S1: 'pending', S2: 'failed', S3: 'error' };
    const { reconciler, reconciled } = setUp([lagging(4)], (id) => outcomes[id]!);
    expect(await reconciler.runOnce(NOW)).toBe(1);
    expect(reconciled.total()).toBe(1);
  });
});
