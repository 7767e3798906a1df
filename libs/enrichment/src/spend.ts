import type { DaySpend } from '@memex/domain';
import type { TokenUsage } from './candidate';

/** What a model costs, in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

export type { DaySpend } from '@memex/domain';

/** The daily budgets; 0 means none. */
export interface Budget {
  dailyTokens: number;
  dailyCostUsd: number;
}

export type BudgetSpent = 'daily-token-budget' | 'daily-cost-budget';

/**
 * What calls cost: what the engine reported (Claude Code reports dollars), else what the
 * price table says of the model, else unknown.
 */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number | undefined {
  if (usage.costUsd !== undefined) return usage.costUsd;
  if (!price) return undefined;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** Which budget the day's spend has reached, if any: then windows go to the local engine. */
export function budgetSpent(spent: DaySpend, budget: Budget): BudgetSpent | null {
  if (budget.dailyTokens > 0 && spent.tokens >= budget.dailyTokens) return 'daily-token-budget';
  if (budget.dailyCostUsd > 0 && spent.costUsd !== null && spent.costUsd >= budget.dailyCostUsd) {
    return 'daily-cost-budget';
  }
  return null;
}

/** What is left of each budget today (null: that budget is not set). */
export function budgetLeft(spent: DaySpend, budget: Budget): { tokens: number | null; costUsd: number | null } {
  return {
    tokens: budget.dailyTokens > 0 ? Math.max(0, budget.dailyTokens - spent.tokens) : null,
    costUsd: budget.dailyCostUsd > 0 ? Math.max(0, budget.dailyCostUsd - (spent.costUsd ?? 0)) : null,
  };
}

/** What a model call holds against the day's budgets while it is in flight. */
export interface SpendEstimate {
  tokens: number;
  costUsd: number | null;
}

/** Room the prompt's instructions, schema and hints take beside the events, and the answer. */
const PROMPT_OVERHEAD_TOKENS = 3000;
const ANSWER_TOKENS = 2000;

/**
 * A window's call before it is made: about a token per four characters of its events, the
 * prompt around them and an answer; priced when the model has a price. It only has to be of
 * the right size: what a call really cost is recorded when it returns.
 */
export function estimateCall(eventChars: number, price: ModelPrice | undefined): SpendEstimate {
  const promptTokens = Math.ceil(eventChars / 4) + PROMPT_OVERHEAD_TOKENS;
  const usage = { promptTokens, completionTokens: ANSWER_TOKENS, totalTokens: promptTokens + ANSWER_TOKENS };
  return { tokens: usage.totalTokens, costUsd: costOf(usage, price) ?? null };
}

/** The day's spend with the calls still in flight counted as if they had cost their estimates. */
export function withInFlight(spent: DaySpend, inFlight: readonly SpendEstimate[]): DaySpend {
  const held = inFlight.reduce((sum, e) => sum + e.tokens, 0);
  const heldCost = inFlight.reduce((sum, e) => sum + (e.costUsd ?? 0), 0);
  const priced = spent.costUsd !== null || inFlight.some((e) => e.costUsd !== null);
  return { tokens: spent.tokens + held, costUsd: priced ? (spent.costUsd ?? 0) + heldCost : null };
}
