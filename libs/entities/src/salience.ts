/** An entity's standing: how often it was named and how lately. */
export interface SalienceInput {
  /** Events that named it. */
  mentions: number;
  /** Live memory items that name it; archived and superseded ones no longer count. */
  itemMentions: number;
  /** Epoch milliseconds. */
  lastSeenAt: number;
}

const MENTION_SCALE = 8;
/** An item naming an entity says more than one event doing so: someone kept it. */
const ITEM_WEIGHT = 2;
const RECENCY_HALF_LIFE_DAYS = 7;
/**
 * Live items naming an entity are counted up to this many: past it salience is 1 to four
 * places whatever the count (1 - e^-25), so counting a hub's thousands of items would only
 * make every context pack that shows it slower as history grows. A pack says "100+ items".
 */
export const ITEM_MENTIONS_COUNTED = 100;
const DAY_MS = 86_400_000;

/**
 * 0..1: saturating in mentions (the eighth mention adds less than the first) times a recency
 * factor that halves each week but never drops below a third, so a file central a month ago
 * still outranks one named once today.
 */
export function salience(input: SalienceInput, now: number): number {
  const weight = Math.max(0, input.mentions) + ITEM_WEIGHT * Math.max(0, input.itemMentions);
  const frequency = 1 - Math.exp(-weight / MENTION_SCALE);
  const ageDays = Math.max(0, now - input.lastSeenAt) / DAY_MS;
  const recency = 1 / 3 + (2 / 3) * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
  return Math.round(frequency * recency * 1e4) / 1e4;
}

/** Recency alone, halving every 24 hours, as spec/context-assembly.md scores recent events. */
export function recencyScore(occurredAt: number, now: number): number {
  const ageHours = Math.max(0, now - occurredAt) / 3_600_000;
  return Math.exp(-ageHours / 24);
}
