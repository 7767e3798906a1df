import { IngestApiModule } from '../../apps/ingest-api/src';
import { textOfLength } from '../../libs/redaction/src/adversarial.fixture';
import { randomOf } from '../../libs/redaction/src/secret-corpus.fixture';
import { storedEventsOf } from '../support/events';
import { event, request } from '../support/http';
import { useTestApp } from '../support/use-test-app';
import { probeUrl, probesWithin } from '../../bench/support/live-prober';

const ctx = useTestApp([IngestApiModule], { env: { ENRICHMENT_DEBOUNCE_MS: '60000' } });

const EVENTS = 48;
const CHARACTERS = 99_000;
/**
 * The longest stretch of the batch's time in which no probe was answered, as a share of that
 * time: a process held by one redaction (68 s before) answers nothing for nearly all of it.
 * A share, not milliseconds: how fast probes are answered is bench:redaction's to measure.
 */
const LONGEST_SILENCE_SHARE = 0.5;

/**
 * Posts a batch of 48 events of 99,000 characters (4.75 MB, within ingest's limits of 5 MB a
 * request and 100 KB an event), each the repeated `unit` and then a GitHub token, while
 * another process asks `/health/live`: the latencies of the probes sent while the batch was
 * in flight.
 */
async function postWhileProbing(sessionId: string, unit: string, token: string) {
  const tail = ` ${token}`;
  const content = textOfLength(unit, CHARACTERS - tail.length) + tail;
  const events = Array.from({ length: EVENTS }, (_, i) => event({ eventId: `${sessionId}-${i}`, content }));
  const prober = probeUrl(`${ctx.server.url}/health/live`);
  // The prober's first answer: it is running.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.timeOrigin + performance.now();
  const res = await request(`${ctx.server.url}/api/v2/events`, {
    key: ctx.project.apiKey,
    body: { sessionId, events },
  });
  const answered = performance.timeOrigin + performance.now();
  const { latencies: probes, longestSilence } = probesWithin(await prober.stop(), started, answered);
  return { res, probes, longestSilence, batchMs: answered - started };
}

async function storedContents(sessionId: string): Promise<string[]> {
  return (await storedEventsOf(ctx.database.db, sessionId)).map((r) => r.content);
}

describe('a 4.8 MB adversarial batch', () => {
  it.each([
    // The batch: `KEY=` repeated, which took 68.5 s to redact. (The slowest text known,
    // an AWS key id every 21 characters, is bench:redaction's: it takes tens of seconds here.)
    ['KEY=', 'KEY=[REDACTED:api-key]'],
  ])(
    'of repeated %j is stored redacted while /health/live keeps answering',
    async (unit, opening) => {
      const token = `ghp_${randomOf('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 36)}`;
      const sessionId = `adversarial-${unit.length}`;
      const { res, probes, longestSilence, batchMs } = await postWhileProbing(sessionId, unit, token);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ accepted: EVENTS, duplicates: 0 });
      // Seen in the test's output: how long the batch took and the slowest probe while it ran.
      console.log(
        `${JSON.stringify(unit)}: batch answered in ${Math.round(batchMs)} ms; ${probes.length} probes of /health/live, ` +
          `slowest ${Math.round(Math.max(...probes))} ms, median ${Math.round(probes.sort((a, b) => a - b)[probes.length >> 1]!)} ms`,
      );
      expect(longestSilence / batchMs).toBeLessThan(LONGEST_SILENCE_SHARE);

      const stored = await storedContents(sessionId);
      expect(stored).toHaveLength(EVENTS);
      for (const content of stored) {
        expect(content.startsWith(opening)).toBe(true);
        expect(content.endsWith(' [REDACTED:github-token]')).toBe(true);
        expect(content).not.toContain(token);
      }
    },
    120_000,
  );
});
