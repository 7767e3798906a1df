import type { Intent } from './intent';

/** The component types of spec/context-assembly.md a pack is built from. */
export const COMPONENT_TYPES = ['recent', 'semantic', 'entity', 'relation', 'pattern', 'custom'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];
/** The sources a budget is allocated across (`custom` is the task stack and extra context). */
export const SOURCES = ['recent', 'semantic', 'entity', 'relation', 'pattern'] as const;
export type Source = (typeof SOURCES)[number];

/** The ContextStrategy of spec/context-assembly.md. */
export interface ContextStrategy {
  /** Percent of the budget each source may fill first; what is left over goes by score. */
  budgetAllocation: Record<Source, number>;
  recencyWeight: number;
  relevanceWeight: number;
  salienceWeight: number;
  /** Hops a relation traversal follows from the entities found. */
  depthLimit: number;
}

export interface StrategyOverride {
  budgetAllocation?: Partial<Record<Source, number>>;
  recencyWeight?: number;
  relevanceWeight?: number;
  salienceWeight?: number;
  depthLimit?: number;
}

export const MAX_DEPTH = 4;

/**
 * Per intent: a fix wants the errors seen before and what fixed them (patterns) and what just
 * happened (recent); an explanation wants the why (semantic) and how things connect (entities,
 * relations), barely the last few events; a question leans the same way, mildly; an action
 * wants the current activity and the conventions. Relevance leads everywhere: a much better
 * match should win over a fresher or more central one.
 */
const DEFAULTS: Record<Intent, ContextStrategy> = {
  fix: {
    budgetAllocation: { recent: 15, semantic: 45, entity: 10, relation: 10, pattern: 20 },
    relevanceWeight: 0.6,
    recencyWeight: 0.2,
    salienceWeight: 0.2,
    depthLimit: 2,
  },
  explain: {
    budgetAllocation: { recent: 5, semantic: 60, entity: 15, relation: 15, pattern: 5 },
    relevanceWeight: 0.7,
    recencyWeight: 0.1,
    salienceWeight: 0.2,
    depthLimit: 2,
  },
  question: {
    budgetAllocation: { recent: 10, semantic: 60, entity: 10, relation: 10, pattern: 10 },
    relevanceWeight: 0.7,
    recencyWeight: 0.15,
    salienceWeight: 0.15,
    depthLimit: 2,
  },
  action: {
    budgetAllocation: { recent: 15, semantic: 55, entity: 10, relation: 10, pattern: 10 },
    relevanceWeight: 0.6,
    recencyWeight: 0.25,
    salienceWeight: 0.15,
    depthLimit: 1,
  },
};

export function defaultStrategy(intent: Intent): ContextStrategy {
  const d = DEFAULTS[intent];
  return { ...d, budgetAllocation: { ...d.budgetAllocation } };
}

/**
 * The intent's defaults with a request's override on top, as the spec merges them. Weights
 * are scaled to sum to 1, so a final score stays in 0..1; allocations over 100 in total are
 * scaled down to 100.
 */
export function resolveStrategy(intent: Intent, override: StrategyOverride = {}): ContextStrategy {
  const base = defaultStrategy(intent);
  const allocation = { ...base.budgetAllocation, ...stripUndefined(override.budgetAllocation ?? {}) };
  const total = SOURCES.reduce((s, k) => s + Math.max(0, allocation[k]), 0);
  for (const k of SOURCES)
    allocation[k] = total > 100 ? (Math.max(0, allocation[k]) * 100) / total : Math.max(0, allocation[k]);
  const weights = {
    recencyWeight: Math.max(0, override.recencyWeight ?? base.recencyWeight),
    relevanceWeight: Math.max(0, override.relevanceWeight ?? base.relevanceWeight),
    salienceWeight: Math.max(0, override.salienceWeight ?? base.salienceWeight),
  };
  const sum = weights.recencyWeight + weights.relevanceWeight + weights.salienceWeight;
  const scale = (w: number) => (sum > 0 ? Math.round((w / sum) * 1e4) / 1e4 : 1 / 3);
  return {
    budgetAllocation: allocation,
    recencyWeight: scale(weights.recencyWeight),
    relevanceWeight: scale(weights.relevanceWeight),
    salienceWeight: scale(weights.salienceWeight),
    depthLimit: Math.min(MAX_DEPTH, Math.max(0, Math.floor(override.depthLimit ?? base.depthLimit))),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
