import type { CandidateItem } from './candidate';

/** An item a session already holds, as the cap weighs it. */
export interface HeldItem {
  id: string;
  salience: number;
}

export interface CapPlan {
  /** Indices, into the new candidates, of those the session has room for. */
  admitted: number[];
  /** Items the session held that more salient new ones displace. */
  displaced: string[];
}

/**
 * How much an item is worth keeping: what its engine said, or for an engine that does not
 * rank, what its importance and confidence say.
 */
export function salienceOf(candidate: Pick<CandidateItem, 'salience' | 'importance' | 'confidence'>): number {
  return candidate.salience ?? Math.round((candidate.importance / 5) * candidate.confidence * 1000) / 1000;
}

/**
 * A session keeps its `room` most salient items, so the store holds the few things worth
 * knowing, however long the session ran: new candidates compete with the items the session
 * already holds, and whatever ranks below the room is not written (a new candidate) or is
 * archived (an item it held). Ties keep what is already stored. `Infinity` keeps everything.
 */
export function planSessionCap(held: readonly HeldItem[], incoming: readonly number[], room: number): CapPlan {
  if (room === Infinity) return { admitted: incoming.map((_, i) => i), displaced: [] };
  const ranked = [
    ...held.map((h, order) => ({ salience: h.salience, held: true, order, id: h.id, index: -1 })),
    ...incoming.map((salience, index) => ({ salience, held: false, order: index, id: '', index })),
  ].sort((a, b) => b.salience - a.salience || Number(b.held) - Number(a.held) || a.order - b.order);
  const kept = ranked.slice(0, room);
  const dropped = ranked.slice(room);
  return {
    admitted: kept
      .filter((r) => !r.held)
      .map((r) => r.index)
      .sort((a, b) => a - b),
    displaced: dropped.filter((r) => r.held).map((r) => r.id),
  };
}
