/** bench:ingest's load: 100-event batches of ~1 KB events over 64 sessions, as hooks send them. */
export const EVENTS_PER_BATCH = 100;
export const SESSIONS = 64;

const FILLER =
  'Edited src/services/payment.ts to retry webhook deliveries with exponential backoff; ran npm test, 214 passed. ';

export function ingestBatch(batch: number) {
  const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
    eventId: `b${batch}-e${i}`,
    type: i % 3 === 0 ? 'prompt' : i % 3 === 1 ? 'tool_call' : 'tool_result',
    timestamp: new Date(Date.UTC(2026, 10, 21, 9, 0, 0, batch * 100 + i)).toISOString(),
    content: `#${batch}.${i} ${FILLER.repeat(9)}`.slice(0, 1000),
    metadata: { tool: 'Edit', cwd: '/repo' },
  }));
  return { sessionId: `bench-session-${batch % SESSIONS}`, branch: 'main', events };
}
