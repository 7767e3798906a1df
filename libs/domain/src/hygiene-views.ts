import type { AsJson } from './api-views';
import type { MemoryItem } from './memory-item';

// The hygiene API's answers, declared once (zod-free, like api-views.ts): the service maps its
// rows to them, the CLI and the dashboard read them.

/** A hygiene pass. */
export interface HygieneRunView {
  runId: string;
  projectId: string;
  mode: 'dry-run' | 'apply';
  trigger: 'operator' | 'schedule';
  requestedBy: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  error: string | null;
  itemsScanned: number | null;
  /** Moves and proposals by rule. */
  counts: Record<string, number>;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** One change a pass or a decision made (or, in a dry run, would make). */
export interface HygieneChangeView {
  changeId: string;
  itemId: string;
  title: string;
  rule: string;
  /** The item's status before and after, when the change moved it. */
  from: string | null;
  to: string | null;
  /** The fields the change touched, as they were and as it left them. */
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  reason: string;
  /** False for what a dry run would have done. */
  applied: boolean;
  revertedAt: string | null;
}

/** What the rule found: the item to keep and the similarity of a merge, the problems of an edit. */
export interface ProposalDetail {
  keepId?: string;
  similarity?: number;
  problems?: Array<{ code: string; field?: string }>;
  [key: string]: unknown;
}

/** A merge or an edit a pass proposes, for a person to apply or reject. */
export interface HygieneProposalView {
  proposalId: string;
  kind: 'merge' | 'edit';
  rule: string;
  itemIds: string[];
  status: 'pending' | 'applied' | 'rejected' | 'expired';
  reason: string;
  detail: ProposalDetail;
  runId: string;
  decidedBy: string | null;
  decidedAt: string | null;
}

/** What a proposal's reader compares: each item as it is now. */
export type ProposalItemView = AsJson<
  Pick<
    MemoryItem,
    | 'itemId'
    | 'type'
    | 'status'
    | 'title'
    | 'facts'
    | 'rationale'
    | 'files'
    | 'tags'
    | 'confidence'
    | 'importance'
    | 'updatedAt'
  >
> & { evidenceCount: number };

/** `GET /api/v2/hygiene/runs`. */
export interface HygieneRunListView {
  runs: HygieneRunView[];
}

/** `GET /api/v2/hygiene/runs/:id`: the run with a page of its changes and proposals. */
export interface HygieneRunDetailView extends HygieneRunView {
  changes: HygieneChangeView[];
  nextChangesAfter: string | null;
  proposals: HygieneProposalView[];
  nextProposalsAfter: string | null;
}

/** `GET /api/v2/hygiene/proposals`. */
export interface ProposalPageView {
  proposals: Array<HygieneProposalView & { items: ProposalItemView[] }>;
  nextCursor: string | null;
}

/** `GET /api/v2/hygiene/changes`. */
export interface ChangePageView {
  changes: Array<HygieneChangeView & { proposalId: string | null; runId: string | null; createdAt: string }>;
  nextCursor: string | null;
}

/** `POST /api/v2/hygiene/runs`: the run queued. */
export interface StartedRunView {
  runId: string;
  projectId: string;
  mode: HygieneRunView['mode'];
  status: HygieneRunView['status'];
}
