import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { ItemStatus } from '@memex/domain';

// In the tables below, `Generated<T>` marks a column the database fills (an identity or a default) when an insert leaves it out.
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ProjectsTable {
  id: string;
  name: string;
  /** Bumped by every change to the project's items; the brain cache key derives from it. */
  memory_revision: Generated<number>;
  /** The memory revision the item embeddings last caught up with. */
  embedded_revision: Generated<number>;
  vector_generation: Generated<number>;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  project_id: string;
  /** SHA-256 of the key; the key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, enough for an operator to tell keys apart. */
  key_prefix: string;
  created_at: CreatedAt;
  revoked_at: NullableTimestamp;
}

export interface SessionsTable {
  id: string;
  project_id: string;
  external_id: string;
  branch: string | null;
  created_at: CreatedAt;
  last_event_at: Timestamp;
  last_event_seq: Generated<number>;
  enrichment_cursor: Generated<number>;
  completed_at: NullableTimestamp;
  /** The newest event when the client last said the session ended; written only by SessionRepository.markCompleted. */
  ended_seq: number | null;
  /** The end enrichment has read as one (its last turn closed); written only by the enrichment window. */
  end_read_seq: number | null;
}

/** One run enriching a session at a time; written only by the enrichment repository. */
export interface EnrichmentLeasesTable {
  session_id: string;
  owner: string;
  expires_at: Timestamp;
}

/** How far a session's events have reached the entity store; written only by EntityCursorRepository. */
export interface EntityCursorsTable {
  session_id: string;
  project_id: string;
  seq: ColumnType<number, number, number>;
}

/** Model calls in flight and the spend each holds; written only by ModelUsageRepository. */
export interface ModelReservationsTable {
  id: Generated<number>;
  project_id: string;
  day: string;
  tokens: number;
  cost_usd: number | null;
  expires_at: Timestamp;
}

export interface RawEventsTable {
  seq: Generated<number>;
  project_id: string;
  session_id: string;
  event_id: string;
  type: string;
  occurred_at: Timestamp;
  content: string;
  metadata: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  received_at: CreatedAt;
}

export interface MemoryItemsTable {
  id: string;
  project_id: string;
  type: string;
  title: string;
  facts: string;
  rationale: string | null;
  impact: string | null;
  files: Generated<string[]>;
  schema_key: string;
  commit_range: string | null;
  confidence: number;
  status: ItemStatus;
  evidence_refs: Generated<string[]>;
  evidence_spans: JSONColumnType<Array<{ eventId: string; quote: string }>, string | undefined, string>;
  dedup_hint: string | null;
  tags: Generated<string[]>;
  importance: number | null;
  session_id: string;
  merged_from: Generated<string[]>;
  superseded_by: string | null;
  last_reinforced_at: NullableTimestamp;
  resolved_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Kept by a trigger from title, facts, rationale, tags and files. */
  search_tsv: ColumnType<string | null, never, never>;
  /** How much an extracted item is worth keeping (0–1); null for items a person wrote. */
  salience: Generated<number | null>;
  embed_hash: ColumnType<string | null, never, never>;
  /** Set by a trigger whenever status changes. */
  status_changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ItemHistoryTable {
  id: Generated<number>;
  project_id: string;
  item_id: string;
  /** created, edited, status, reinforced, merged, superseded, resolved, reopened, reverted … */
  change: string;
  before: JSONColumnType<Record<string, unknown> | null, string | null, never>;
  after: JSONColumnType<Record<string, unknown> | null, string | null, never>;
  /** user, worker, rule or operator */
  actor_type: string;
  /** Which key, worker, or rule name made the change. */
  actor: string;
  reason: string | null;
  /** The hygiene run or enrichment job that made the change, when there is one. */
  run_id: string | null;
  created_at: CreatedAt;
}

export interface LlmUsageTable {
  project_id: string;
  day: string;
  /** openai or claude-code. */
  engine: Generated<string>;
  tokens: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  /** Null while no call of the day reported its cost or was priced (LLM_PRICES). */
  cost_usd: Generated<number | null>;
  calls: Generated<number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A window a model answered, kept so a redelivered job reads the answer instead of paying again. */
export interface ModelWindowsTable {
  session_id: string;
  first_seq: number;
  last_seq: number;
  project_id: string;
  engine: string;
  model: string;
  input_chars: number;
  answer: string;
  tokens: number;
  cost_usd: number | null;
  created_at: CreatedAt;
}

export interface HygieneRunsTable {
  id: string;
  project_id: string;
  mode: 'dry-run' | 'apply';
  trigger: 'operator' | 'schedule';
  requested_by: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  items_scanned: number | null;
  counts: JSONColumnType<Record<string, number>, string | undefined, string>;
  error: string | null;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface HygieneProposalsTable {
  id: string;
  project_id: string;
  /** The run that first found it. */
  run_id: string;
  kind: 'merge' | 'edit';
  rule: string;
  item_ids: string[];
  fingerprint: string;
  /** The rule's proposal as it found it (keepId and similarity of a merge, problems of an edit). */
  detail: JSONColumnType<Record<string, unknown>, string, string>;
  reason: string;
  status: 'pending' | 'applied' | 'rejected' | 'expired';
  decided_by: string | null;
  decided_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface HygieneRunProposalsTable {
  run_id: string;
  proposal_id: string;
}

export interface HygieneChangesTable {
  id: string;
  project_id: string;
  run_id: string | null;
  proposal_id: string | null;
  item_id: string;
  rule: string;
  /** The columns the change touched, as they were and as it left them. */
  before: JSONColumnType<Record<string, unknown>, string, never>;
  after: JSONColumnType<Record<string, unknown>, string, never>;
  reason: string;
  /** False for what a dry run would have done. */
  applied: boolean;
  reverted_at: NullableTimestamp;
  reverted_by: string | null;
  created_at: CreatedAt;
}

export interface ItemEmbeddingsTable {
  item_id: string;
  project_id: string;
  model: string;
  text_hash: string;
  status: string;
  type: string;
  /** Float32 little-endian; only the postgres vector store keeps it here. */
  vector: Buffer | null;
  synced_at: ColumnType<Date, Date | string | undefined, Date | string>;
  generation: number;
}

/** The entity store (migration 0011): see libs/entities for what fills it and how it is read. */
export interface EntitiesTable {
  id: Generated<number>;
  project_id: string;
  kind: string;
  name: string;
  base: string;
  mentions: Generated<number>;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface EntityMentionsTable {
  entity_id: number;
  project_id: string;
  session_id: string;
  event_id: string;
  occurred_at: Timestamp;
  edited: Generated<boolean>;
}

export interface EntityRelationsTable {
  project_id: string;
  source_id: number;
  target_id: number;
  kind: string;
  weight: Generated<number>;
  last_seen_at: Timestamp;
}

export interface RelationSessionsTable {
  source_id: number;
  target_id: number;
  kind: string;
  session_id: string;
}

export interface ItemEntitiesTable {
  project_id: string;
  item_id: string;
  entity_id: number;
}

export interface ErrorOccurrencesTable {
  project_id: string;
  session_id: string;
  event_id: string;
  signature: string;
  occurred_at: Timestamp;
  command: string | null;
  fix: string | null;
  fix_event_ids: Generated<string[]>;
}

export interface DB {
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  enrichment_leases: EnrichmentLeasesTable;
  entity_cursors: EntityCursorsTable;
  model_reservations: ModelReservationsTable;
  raw_events: RawEventsTable;
  memory_items: MemoryItemsTable;
  item_history: ItemHistoryTable;
  llm_usage: LlmUsageTable;
  model_windows: ModelWindowsTable;
  hygiene_runs: HygieneRunsTable;
  hygiene_proposals: HygieneProposalsTable;
  hygiene_run_proposals: HygieneRunProposalsTable;
  hygiene_changes: HygieneChangesTable;
  item_embeddings: ItemEmbeddingsTable;
  entities: EntitiesTable;
  entity_mentions: EntityMentionsTable;
  entity_relations: EntityRelationsTable;
  relation_sessions: RelationSessionsTable;
  item_entities: ItemEntitiesTable;
  error_occurrences: ErrorOccurrencesTable;
}
