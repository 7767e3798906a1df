import type { Config } from '@memex/config';

/**
 * Requests being answered, process-wide: counted by a Fastify hook (bootstrap-http) so
 * background work can tell when the process is busy serving.
 */
export const requestActivity = { inFlight: 0, lastStartedAt: 0 };

/** How long the process must have been without a new request before background work goes on. */
const QUIET_MS = 50;
/** Background work waits at most this long: under a steady flood it still moves. */
const MAX_WAIT_MS = 2000;
const POLL_MS = 10;

/**
 * Where background work (an enrichment window) gives way to requests, in a process that
 * answers requests and enriches on the same thread: the all-in-one process (`npm start`), and
 * above all in embedded mode, where the database is one connection on that thread too. A hook's
 * batch waiting behind an enrichment is what a person notices, a window enriched two seconds
 * later is not. The apps of server mode run apart (a worker answers only probes): nothing waits.
 */
export interface BackgroundPace {
  /** Whether requests are counted for it (bootstrap-http adds the hook only then). */
  readonly watchesRequests: boolean;
  /** Resolves when the process is quiet, or after MAX_WAIT_MS. */
  yield(): Promise<void>;
}

/** How a process is put together, as its entry point says. */
export interface ProcessShape {
  /** Requests and background work share the thread (the all-in-one entry). */
  sharesThread?: boolean;
}

export const BACKGROUND_PACE = Symbol('BACKGROUND_PACE');

export function backgroundPace(
  config: Pick<Config, 'MEMEX_MODE'>,
  shape: ProcessShape = {},
  now = () => Date.now(),
): BackgroundPace {
  if (config.MEMEX_MODE !== 'embedded' && !shape.sharesThread) {
    return { watchesRequests: false, yield: async () => undefined };
  }
  return {
    watchesRequests: true,
    async yield(): Promise<void> {
      const until = now() + MAX_WAIT_MS;
      while (now() < until) {
        if (requestActivity.inFlight === 0 && now() - requestActivity.lastStartedAt >= QUIET_MS) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}
