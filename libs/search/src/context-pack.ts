import { assembleContext } from './assemble';
import type { ContextComponent, PackCandidate, PackEvent } from './pack-request';
import type { Intent } from './intent';
import type { ContextStrategy } from './strategy';

export { cutWords } from './pack-lines';
export type { ContextComponent, PackCandidate, PackEvent } from './pack-request';

/**
 * The first context pack: the memory items search found for a query, reweighted by what the
 * query asks for, and the latest session events, ranked by relevance alone and never
 * compressed. A request that names no strategy, entity or pattern source still gets this
 * (see assembleContext for the full spec/context-assembly.md assembly).
 */

export interface ContextPack {
  content: string;
  /** In document order. */
  components: ContextComponent[];
  tokenCount: number;
  /** Some candidate or event was left out for lack of room. */
  truncated: boolean;
  intent: Intent;
}

export interface PackRequest {
  query: string;
  maxTokens: number;
  candidates: PackCandidate[];
  recent?: PackEvent[];
  /** Epoch milliseconds. */
  now: number;
  estimateTokens?: (text: string) => number;
}

/** Recent events take at most this share of the budget; items take the rest. */
export const RECENT_SHARE = 0.15;

/** Relevance alone; items may fill all the budget recent events leave. */
export const RELEVANCE_ONLY: ContextStrategy = {
  budgetAllocation: { recent: RECENT_SHARE * 100, semantic: 100, entity: 0, relation: 0, pattern: 0 },
  recencyWeight: 0,
  relevanceWeight: 1,
  salienceWeight: 0,
  depthLimit: 0,
};

export function assembleContextPack(request: PackRequest): ContextPack {
  const { strategy: _strategy, ...pack } = assembleContext({ ...request, strategy: RELEVANCE_ONLY, compress: false });
  return pack;
}
