import { z } from 'zod';
import { queryInteger } from './query-params';

export const usageQuerySchema = z.strictObject({
  /** How many UTC days back, today included. */
  days: queryInteger(1, 90).optional().default(30),
});
export type UsageQuery = z.infer<typeof usageQuerySchema>;

/** One engine's model spend on one UTC day. */
export interface UsageDayView {
  day: string;
  engine: string;
  tokens: number;
  promptTokens: number;
  completionTokens: number;
  /** Null when the engine did not report it and LLM_PRICES has no price for the model. */
  costUsd: number | null;
  calls: number;
}

/** `GET /api/v2/usage`: what a project spent on models, against its daily budgets. */
export interface UsageView {
  projectId: string;
  /** The engine this deployment enriches with, and its model (null for the local engine). */
  engine: { name: 'local' | 'openai' | 'claude-code'; model: string | null };
  /** 0 means no budget of that kind. */
  budget: { dailyTokens: number; dailyCostUsd: number };
  today: {
    day: string;
    tokens: number;
    costUsd: number | null;
    /** What is left today of each budget that is set (null: not set). */
    left: { tokens: number | null; costUsd: number | null };
    /** Which budget is spent, sending windows to the local engine until midnight UTC. */
    spent: 'daily-token-budget' | 'daily-cost-budget' | null;
  };
  days: UsageDayView[];
}

/** `GET /api/v2/status`: where the project's memory stands, for `memex status`. */
export interface StatusView {
  projectId: string;
  engine: UsageView['engine'];
  sessions: { total: number; lagging: number; lastEventAt: string | null };
  items: { live: number; review: number; archived: number };
  lastEnrichmentAt: string | null;
  usageToday: UsageView['today'];
}
