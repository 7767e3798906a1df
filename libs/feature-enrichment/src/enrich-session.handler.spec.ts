import { DelayedError, type QueueJob } from '@memex/queue';
import { fake } from '../../../test/support/fakes';
import { EnrichSessionHandler } from './enrich-session.handler';
import type { EnrichmentReport, EnrichmentService } from './enrichment.service';

const PAYLOAD = { projectId: 'P1', sessionId: 'S1' };

function setUp(report: Partial<EnrichmentReport>) {
  const enrichment = fake<EnrichmentService>(
    { enrichSession: async () => ({ busy: false, ...report }) as EnrichmentReport },
    'enrichment',
  );
  const job = fake<QueueJob>({ id: 'job-7', moveToDelayed: async () => undefined }, 'job');
  return { handler: new EnrichSessionHandler(enrichment), enrichment, job };
}

describe('EnrichSessionHandler', () => {
  it("enriches the job's session as the job, and returns the report as the job's value", async () => {
    const { handler, enrichment, job } = setUp({ windows: 1 } as Partial<EnrichmentReport>);
    expect(await handler.handle(PAYLOAD, job)).toMatchObject({ busy: false, windows: 1 });
    expect(enrichment.enrichSession).toHaveBeenCalledWith('P1', 'S1', 'job:job-7');
  });

  it('comes back later, spending no attempt, while another run holds the session', async () => {
    const { handler, job } = setUp({ busy: true });
    await expect(handler.handle(PAYLOAD, job, 'token-1')).rejects.toBeInstanceOf(DelayedError);
    expect(job.moveToDelayed).toHaveBeenCalledWith(expect.any(Number), 'token-1');
    const [until] = job.moveToDelayed.mock.calls[0]!;
    expect(until - Date.now()).toBeGreaterThan(1000);
  });
});
