// The entity store's rows as the repository reads and writes them (EntityRepository).

/** An entity as the writer names it; `base` is what lookups match (libs/entities lookupName). */
export interface EntityName {
  kind: string;
  name: string;
  base: string;
}

export interface MentionRow extends EntityName {
  eventId: string;
  occurredAt: Date;
  edited: boolean;
}

export interface RelationRow {
  kind: string;
  source: EntityName;
  target: EntityName;
}

export interface ErrorRow {
  eventId: string;
  signature: string;
  occurredAt: Date;
  command: string | null;
  fix: string | null;
  fixEventIds: string[];
}

/** What one enrichment window adds to the store. */
export interface EntityWindow {
  mentions: MentionRow[];
  relations: RelationRow[];
  errors: ErrorRow[];
  /** When the window's last event happened: new entities are first seen then. */
  at: Date;
}

export interface TaskEventRow {
  eventId: string;
  type: string;
  occurredAt: Date;
  content: string;
  metadata: Record<string, unknown> | null;
}

export interface EntityRow {
  id: number;
  kind: string;
  name: string;
  mentions: number;
  /** Items of the statuses asked for that name it. */
  itemMentions: number;
  lastSeenAt: Date;
}

export interface RelationHit {
  kind: string;
  weight: number;
  depth: number;
  /** When a session last showed the relation. */
  lastSeenAt: Date;
  source: { id: number; kind: string; name: string };
  target: { id: number; kind: string; name: string };
}

export interface PatternAggregate {
  signature: string;
  occurrences: number;
  sessions: number;
  lastSeenAt: Date;
  fixes: Array<{ summary: string; count: number; eventIds: string[] }>;
}

/** An error signature of the project holding a word the pack looks for. */
export interface SignatureHit {
  word: string;
  signature: string;
  /** Events that named the signature (its entity's mentions). */
  mentions: number;
  lastSeenAt: Date;
}
