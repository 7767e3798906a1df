import type { RawEventInput } from '@memex/domain';
import { probeUrl, probesWithin } from '../support/live-prober';
import { startAllInOne } from '../support/server-process';
import { fmt } from '../support/stats';

/**
 * Issue 29's freeze, end to end: the all-in-one process (server mode) takes a 4.75 MB batch
 * whose text was made to be slow to redact, while another process asks `/health/live` every
 * 10 ms. The slowest answer is what a liveness probe would have seen (goal < 100 ms).
 */
export async function liveDuringBatch(events: (unit: string) => RawEventInput[]): Promise<void> {
  // No enrichment during the run: the debounced job would come after it.
  const server = await startAllInOne('redaction-live', { ENRICHMENT_DEBOUNCE_MS: '600000' });
  try {
    console.log('  /health/live of the all-in-one process while it takes the batch (goal: every answer < 100 ms):');
    for (const unit of ['KEY=', 'AKIAAAAAAAAAAAAAAAAA ']) {
      const prober = probeUrl(`${server.url}/health/live`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.timeOrigin + performance.now();
      const res = await fetch(`${server.url}/api/v2/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: `live-${unit.length}`, events: events(unit) }),
      });
      await res.text();
      const answered = performance.timeOrigin + performance.now();
      const { latencies } = probesWithin(await prober.stop(), started, answered);
      const sorted = latencies.sort((a, b) => a - b);
      console.log(
        `    ${JSON.stringify(unit)} repeated: ${res.status} in ${fmt(answered - started, 0)} ms; ${fmt(sorted.length)} probes, ` +
          `median ${fmt(sorted[sorted.length >> 1] ?? NaN, 1)} ms, p99 ${fmt(sorted[Math.floor(sorted.length * 0.99)] ?? NaN, 1)} ms, ` +
          `slowest ${fmt(sorted[sorted.length - 1] ?? NaN, 1)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
}
