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
