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
 * Where background work (an enrichment window) gives way to requests. In embedded mode the
 * database is one connection on the Node thread, shared with ingest: a hook's batch waiting
 * behind an enrichment transaction is what a person notices, a window enriched two seconds
 * later is not. In server mode the database has its own processes and cores: nothing waits.
 */
export interface BackgroundPace {
  /** Resolves when the process is quiet, or after MAX_WAIT_MS. */
  yield(): Promise<void>;
}

export const BACKGROUND_PACE = Symbol('BACKGROUND_PACE');

export function backgroundPace(config: Pick<Config, 'MEMEX_MODE'>, now = () => Date.now()): BackgroundPace {
  if (config.MEMEX_MODE !== 'embedded') return { yield: async () => undefined };
  return {
    async yield(): Promise<void> {
      const until = now() + MAX_WAIT_MS;
      while (now() < until) {
        if (requestActivity.inFlight === 0 && now() - requestActivity.lastStartedAt >= QUIET_MS) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}
