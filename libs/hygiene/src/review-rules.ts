import {
  DomainError,
  REVERTIBLE_FIELDS,
  canonical,
  pickFields,
  proposalMayMove,
  type ApplyProposalBody,
  type ChangeFields,
  type ProposalStatus,
  type RevertibleField,
  type StoredItemFields,
} from '@memex/domain';
import { isLive } from './lifecycle-rules';
import { mergedKeep, type MergeSide } from './merge-fix';
import { needsOperatorInput, qualityPatch } from './quality-fix';
import type { QualityProblem } from './types';

export { REVERTIBLE_FIELDS, canonical, pickFields, type ChangeFields, type RevertibleField } from '@memex/domain';

/**
 * An item as an operator's decision reads it: the fields a change may touch, named as stored,
 * with the row's id and the time its status last moved (which tells A → B → A from A).
 */
export type ReviewItem = Pick<StoredItemFields, RevertibleField> & { id: string; status_changed_at: Date };

export interface ReviewProposal {
  id: string;
  kind: string;
  status: ProposalStatus;
  item_ids: string[];
  detail: Record<string, unknown>;
}

/** A recorded hygiene change, as a revert judges it. */
export interface RecordedChange {
  id: string;
  item_id: string;
  applied: boolean;
  reverted_at: Date | null;
  created_at: Date;
  after: Record<string, unknown>;
}

export interface ChangeStep {
  itemId: string;
  set: ChangeFields;
  change: 'merged' | 'superseded' | 'edited';
}

/** What an operator sends with "apply": the item a merge keeps, or an edit's own words. */
export type ProposalDecision = Pick<ApplyProposalBody, 'keepId' | 'patch'>;

/** A proposal an operator can still apply: pending, every item still there. */
export function assertApplicable(proposal: ReviewProposal, items: readonly ReviewItem[]): void {
  if (proposal.status === 'expired') {
    throw new DomainError('PROPOSAL_OUTDATED', 'the last hygiene pass no longer found this proposal', {
      proposalId: proposal.id,
    });
  }
  if (!proposalMayMove(proposal.status, 'apply')) {
    throw new DomainError('PROPOSAL_DECIDED', `proposal ${proposal.id} is already ${proposal.status}`, {
      status: proposal.status,
    });
  }
  const missing = proposal.item_ids.filter((id) => !items.some((i) => i.id === id));
  if (missing.length > 0) {
    throw new DomainError('PROPOSAL_OUTDATED', 'items of this proposal no longer exist', { missing });
  }
}

/** A proposal an operator can still reject: not decided yet (an expired one may be). */
export function assertRejectable(proposal: ReviewProposal): void {
  if (!proposalMayMove(proposal.status, 'reject')) {
    throw new DomainError('PROPOSAL_DECIDED', `proposal ${proposal.id} is already ${proposal.status}`, {
      status: proposal.status,
    });
  }
}

const side = (item: ReviewItem): MergeSide => ({
  id: item.id,
  files: item.files,
  tags: item.tags,
  evidenceRefs: item.evidence_refs,
  evidenceSpans: item.evidence_spans,
  confidence: item.confidence,
  importance: item.importance,
  mergedFrom: item.merged_from,
});

/**
 * The changes applying a proposal makes. A merge keeps one item (the operator's pick, else
 * the proposal's), gives it the others' files, tags, evidence and worth, and marks the others
 * superseded by it; an edit fixes what the pass found, with the operator's words on top.
 */
export function planProposal(
  proposal: ReviewProposal,
  items: readonly ReviewItem[],
  decision: ProposalDecision,
): ChangeStep[] {
  if (proposal.kind === 'merge') {
    if (decision.patch) throw new DomainError('VALIDATION_FAILED', 'a merge takes keepId, not patch', {});
    const gone = items.filter((i) => !isLive(i.status));
    if (gone.length > 0) {
      throw new DomainError('PROPOSAL_OUTDATED', 'some items of this merge are no longer active or stale', {
        items: gone.map((i) => ({ itemId: i.id, status: i.status })),
      });
    }
    const keepId = decision.keepId ?? (proposal.detail.keepId as string);
    const keep = items.find((i) => i.id === keepId);
    if (!keep) throw new DomainError('VALIDATION_FAILED', `keepId ${keepId} is not one of this merge's items`, {});
    const others = items.filter((i) => i !== keep);
    const merged = mergedKeep(side(keep), others.map(side));
    return [
      {
        itemId: keep.id,
        change: 'merged',
        set: {
          merged_from: merged.mergedFrom,
          files: merged.files,
          tags: merged.tags,
          evidence_refs: merged.evidenceRefs,
          evidence_spans: merged.evidenceSpans,
          confidence: merged.confidence,
          importance: merged.importance,
        },
      },
      ...others.map((o) => ({
        itemId: o.id,
        change: 'superseded' as const,
        set: { status: 'superseded', superseded_by: keep.id },
      })),
    ];
  }
  if (decision.keepId) throw new DomainError('VALIDATION_FAILED', 'an edit takes patch, not keepId', {});
  const item = items[0]!;
  // Review items can still be edited: the edit may be what settles them.
  if (!isLive(item.status) && item.status !== 'review') {
    throw new DomainError('PROPOSAL_OUTDATED', `the item is ${item.status} now`, { status: item.status });
  }
  const problems = proposal.detail.problems as QualityProblem[];
  if (needsOperatorInput(problems) && !decision.patch?.rationale) {
    throw new DomainError('INPUT_REQUIRED', 'this Decision has no rationale: send patch.rationale to apply the edit', {
      required: ['patch.rationale'],
    });
  }
  return [{ itemId: item.id, set: { ...qualityPatch(item, problems), ...decision.patch }, change: 'edited' }];
}

/**
 * Whether a change can be reverted on its item: a dry run's change was never made, a change
 * goes back once, and an item that changed since keeps that change (a revert would undo it).
 */
export function assertRevertible(change: RecordedChange, item: ReviewItem | undefined): ReviewItem {
  const changeId = change.id;
  if (!change.applied) {
    throw new DomainError('CHANGE_NOT_REVERTIBLE', 'this change was only planned by a dry run; nothing to revert', {
      changeId,
    });
  }
  if (change.reverted_at) {
    throw new DomainError('CHANGE_NOT_REVERTIBLE', `change ${changeId} was already reverted`, {
      changeId,
      revertedAt: change.reverted_at.toISOString(),
    });
  }
  if (!item) throw new DomainError('ITEM_NOT_FOUND', `item ${change.item_id} no longer exists`, { changeId });
  const fields = Object.keys(change.after).filter((f) => (REVERTIBLE_FIELDS as readonly string[]).includes(f));
  const current = pickFields(item, fields);
  const differing = fields.filter((f) => canonical(current[f as RevertibleField]) !== canonical(change.after[f]));
  // Equal values are not enough: the status may have moved away and back since (A → B → A).
  const movedSince = fields.includes('status') && item.status_changed_at.getTime() !== change.created_at.getTime();
  if (movedSince) differing.push('status_changed_at');
  if (differing.length > 0) {
    throw new DomainError('ITEM_CHANGED_SINCE', 'the item changed since; revert would undo a later change', {
      changeId,
      itemId: item.id,
      fields: differing,
    });
  }
  return item;
}
