import { HttpFailure, type MemexHttp } from '../memex-http';
import type { Spool, SpoolEntry } from './spool';

const MAX_SERVER_FAILURES = 10;

export interface Delivery {
  sent: number;
  /** Left in the spool for a later hook. */
  kept: number;
  rejected: number;
  /** Why delivery stopped early, or what the server refused. */
  problem?: string;
}

async function send(http: MemexHttp, entry: SpoolEntry, timeoutMs: number): Promise<void> {
  if (entry.kind === 'events') {
    const { sessionId, branch, events } = entry;
    await http.call('POST', '/api/v2/events', {
      body: { sessionId, ...(branch ? { branch } : {}), events },
      timeoutMs,
    });
  } else {
    await http.call('POST', `/api/v2/sessions/${encodeURIComponent(entry.sessionId)}/complete`, {
      body: entry.ended ? { ended: true } : {},
      timeoutMs,
    });
  }
}

/**
 * Sends the spool oldest first, this run's batches and any a down server left behind. Stops
 * at the first failure worth retrying (the server is down, slow, or the key is not set up)
 * so order is kept; a request refused for good is set aside rather than retried for ever.
 */
export async function deliverSpool(spool: Spool, http: MemexHttp, remainingMs: () => number): Promise<Delivery> {
  const names = await spool.pending();
  const delivery: Delivery = { sent: 0, kept: 0, rejected: 0 };
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (remainingMs() < 50) {
      delivery.kept = names.length - i;
      delivery.problem ??= 'out of time in this hook';
      return delivery;
    }
    const entry = await spool.read(name);
    if (!entry) {
      // Sent and removed by a hook running alongside this one.
      continue;
    }
    try {
      await send(http, entry, remainingMs() - 25);
      await spool.remove(name);
      delivery.sent += 1;
    } catch (error) {
      if (!(error instanceof HttpFailure)) throw error;
      // Completing a session ingest never saw an event of (an empty transcript) has nothing to do.
      if (entry.kind === 'complete' && error.code === 'SESSION_NOT_FOUND') {
        await spool.remove(name);
        continue;
      }
      // An entry the server keeps failing on (it answers, with a 5xx) is set aside after a while.
      // A 503 is not the entry's fault: a dependency of the server is away and it says to come
      // back, so the entry waits in the spool however long the outage lasts.
      if (error.kind === 'status' && (error.status ?? 0) >= 500 && error.status !== 503) {
        const failures = (entry.failures ?? 0) + 1;
        if (failures >= MAX_SERVER_FAILURES) {
          await spool.reject(name);
          delivery.rejected += 1;
          delivery.problem = `the server failed on a request ${failures} times (${error.message}); set aside`;
          continue;
        }
        await spool.rewrite(name, { ...entry, failures });
      }
      if (error.retryable) {
        delivery.kept = names.length - i;
        delivery.problem = error.message;
        return delivery;
      }
      await spool.reject(name);
      delivery.rejected += 1;
      delivery.problem = `the server refused a request (${error.code}: ${error.message})`;
    }
  }
  return delivery;
}
