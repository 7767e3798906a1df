import type { EventType } from './raw-event';

/**
 * Shapes the enrichment engines and the database both speak of, declared here so that the
 * repositories need nothing of the engines' rules (libs/enrichment re-exports them).
 */

/** An event as engines see it. */
export interface EngineEvent {
  seq: number;
  eventId: string;
  type: EventType;
  timestamp: Date;
  content: string;
  metadata: Record<string, unknown> | null;
}

/** How a model engine reaches its model: an OpenAI-compatible endpoint, or the `claude` command. */
export type ModelEngineName = 'openai' | 'claude-code';

/** A project's model spend for a day, across engines. */
export interface DaySpend {
  tokens: number;
  /** Null when no call of the day reported or was priced. */
  costUsd: number | null;
}
