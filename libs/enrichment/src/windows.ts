import type { EngineEvent } from './candidate';

export interface WindowLimits {
  maxEvents: number;
  /** Estimated at 4 characters a token. */
  maxTokens: number;
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The longest prefix of `events` within the limits. Always at least one event, so a single
 * oversized event still moves the cursor (engines truncate what they send on).
 */
export function takeWindow(events: readonly EngineEvent[], limits: WindowLimits): EngineEvent[] {
  const window: EngineEvent[] = [];
  let tokens = 0;
  for (const event of events) {
    const cost = estimateTokens(event.content) + 20;
    if (window.length > 0 && (window.length >= limits.maxEvents || tokens + cost > limits.maxTokens)) break;
    window.push(event);
    tokens += cost;
  }
  return window;
}
