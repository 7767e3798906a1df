import type { ItemStatus, ItemType } from '@memex/domain';
import type { ComponentType, ContextStrategy } from './strategy';
import type { Intent } from './intent';

// What a context pack is assembled from and what it answers (assembleContext, assemble.ts).

export interface PackCandidate {
  itemId: string;
  type: ItemType;
  title: string;
  facts: string;
  rationale: string | null;
  files: string[];
  status: ItemStatus;
  /** Fused search score, higher is better. */
  relevance: number;
  /** Epoch milliseconds; without it the item scores no recency. */
  updatedAt?: number;
  /** 0..1; without it an item's salience is middling (0.5). */
  salience?: number | null;
}

export interface PackEvent {
  eventId: string;
  type: string;
  /** Epoch milliseconds, as `now`. */
  occurredAt: number;
  content: string;
}

export interface PackEntity {
  entityId: string;
  kind: string;
  name: string;
  mentions: number;
  itemMentions: number;
  lastSeenAt: number;
  /** 0..1, libs/entities salience. */
  salience: number;
  /** The query named it. */
  mentioned: boolean;
}

export interface PackRelation {
  kind: string;
  weight: number;
  depth: number;
  source: { kind: string; name: string };
  target: { kind: string; name: string };
}

export interface PackPattern {
  signature: string;
  occurrences: number;
  sessions: number;
  lastSeenAt: number;
  fixes: Array<{ summary: string; count: number; eventIds: string[] }>;
  /** 0..1: 1 when the query quotes this very error, less for a partial match of its words. */
  match: number;
}

/** The task stack a prompt starts from (see libs/entities taskStack). */
export interface PackStack {
  root: { id: string; goal: string };
  /** Below the root to the current frame: a finished frame by its result, else its goal. */
  path: Array<{ id: string; goal: string; status: string; result?: string }>;
  /** Finished frames beside the current one. */
  done: Array<{ id: string; goal: string; result?: string }>;
}

export interface ContextComponent {
  type: ComponentType;
  /** The itemId, eventId, entity id, relation or pattern signature it shows. */
  source: string;
  /** Its line in the document. */
  content: string;
  tokens: number;
  /** 0..1: the combined score (recent events: their recency). */
  relevanceScore: number;
  /** Cut to its first sentence to fit. */
  compressed?: true;
  /** Events that show it (a pattern's fix). */
  evidence?: string[];
}

export interface AssemblyRequest {
  query: string;
  maxTokens: number;
  /** Epoch milliseconds. */
  now: number;
  strategy: ContextStrategy;
  intent?: Intent;
  candidates: PackCandidate[];
  recent?: PackEvent[];
  entities?: PackEntity[];
  relations?: PackRelation[];
  patterns?: PackPattern[];
  stack?: PackStack;
  additionalContext?: string;
  /** Keywords of the query, for the relevance of recent events. */
  keywords?: string[];
  /** Compress what does not fit whole (default true). */
  compress?: boolean;
  estimateTokens?: (text: string) => number;
}

export interface AssembledContext {
  content: string;
  /** In document order. */
  components: ContextComponent[];
  tokenCount: number;
  /** Something offered was left out or compressed for lack of room. */
  truncated: boolean;
  intent: Intent;
  strategy: ContextStrategy;
}
