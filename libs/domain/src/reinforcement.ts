import type { EvidenceSpan, ItemStatus, ItemType } from './memory-item';

/** What a reinforcement reads of the live item it lands on: the fields it may change. */
export interface ReinforceTarget {
  title: string;
  status: ItemStatus;
  files: readonly string[];
  evidenceSpans: readonly EvidenceSpan[];
  salience: number | null;
  resolvedAt: Date | null;
}

/** The new saying of the item: what a window extracted under the same dedup hint. */
export interface ReinforceSaying {
  type: ItemType;
  title: string;
  facts: string;
  files: readonly string[];
  spans: readonly EvidenceSpan[];
  salience: number;
  resolved: boolean;
}

/** The item after a reinforcement, as the enrichment rules decide it (libs/enrichment `reinforce`). */
export interface Reinforcement {
  title: string;
  facts: string;
  confidence: number;
  status: ItemStatus;
  files: string[];
  evidenceRefs: string[];
  evidenceSpans: EvidenceSpan[];
  salience: number | null;
  lastReinforcedAt: Date;
  resolvedAt: Date | null;
}
