/**
 * The brain SessionStart last printed, kept on the machine so the next SessionStart can ask
 * the server only whether it changed (If-None-Match, answered 304 without a body), and can
 * still print it when the server is down or hung.
 */
export interface CachedBrain {
  /** The ETag the server sent with the document, quotes included, as If-None-Match takes it. */
  etag: string;
  /** The budget it was assembled for: another budget is another document. */
  tokenBudget: number;
  document: string;
  /** When the server last vouched for it (ISO time): sent, or confirmed by a 304. */
  checkedAt: string;
}

/** The cache file's text as a brain of this budget, or nothing: a torn, edited or foreign file is ignored. */
export function readCachedBrain(text: string | undefined, tokenBudget: number): CachedBrain | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { etag, tokenBudget: budget, document, checkedAt } = value as Record<string, unknown>;
  if (typeof etag !== 'string' || !etag || typeof document !== 'string' || !document) return undefined;
  if (budget !== tokenBudget || typeof checkedAt !== 'string' || Number.isNaN(Date.parse(checkedAt))) return undefined;
  return { etag, tokenBudget, document, checkedAt };
}

/** How the server answered the brain's request. */
export type BrainAnswer =
  | { kind: 'sent'; document: string; etag?: string }
  | { kind: 'not-modified' }
  /** No answer, or not the brain: `status` when the server answered at all. */
  | { kind: 'failed'; reason: 'unconfigured' | 'unreachable' | 'timeout' | 'status'; status?: number; problem: string };

export interface SettledBrain {
  /** The brain to print, if there is one. */
  document?: string;
  /** Set when the printed brain is the cached one because the server did not give one: when it was last current. */
  staleSince?: string;
  /** What to keep for the next SessionStart. */
  save?: CachedBrain;
  problem?: string;
}

/**
 * A server that is down, hung or failing has said nothing about the brain, so the cached one
 * is still the best there is; one that refused the request (a revoked key, a bad budget) has,
 * and the cache is not printed over its answer.
 */
function serverAway(answer: Extract<BrainAnswer, { kind: 'failed' }>): boolean {
  if (answer.reason === 'unreachable' || answer.reason === 'timeout') return true;
  return answer.reason === 'status' && (answer.status ?? 0) >= 500;
}

/** What SessionStart prints and keeps, from the server's answer and what was cached before it asked. */
export function settleBrain(
  answer: BrainAnswer,
  cached: CachedBrain | undefined,
  tokenBudget: number,
  now: Date,
): SettledBrain {
  const checkedAt = now.toISOString();
  if (answer.kind === 'sent') {
    // Without an ETag there is nothing to revalidate later: printed, not kept.
    const save = answer.etag ? { etag: answer.etag, tokenBudget, document: answer.document, checkedAt } : undefined;
    return { document: answer.document, ...(save ? { save } : {}) };
  }
  if (answer.kind === 'not-modified') {
    // Only a request that named the cached ETag can be answered 304; without one there is nothing to print.
    if (!cached) return { problem: 'Memex answered 304 for a brain this machine has not cached' };
    return { document: cached.document, save: { ...cached, checkedAt } };
  }
  if (cached && serverAway(answer)) {
    return {
      document: cached.document,
      staleSince: cached.checkedAt,
      problem: `${answer.problem}; printed the brain cached on ${cached.checkedAt}`,
    };
  }
  return { problem: answer.problem };
}

/** Said to the assistant above a cached brain: it may be behind, and the memex tools may fail for now. */
export function staleBrainNote(staleSince: string): string {
  return `Memex is not answering right now (its memex tools may fail): this is the brain as it was on ${staleSince.slice(0, 16).replace('T', ' ')} UTC.`;
}
