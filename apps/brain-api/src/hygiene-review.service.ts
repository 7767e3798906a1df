import { Injectable } from '@nestjs/common';
import {
  HygieneReviewRepository,
  HygieneRunRepository,
  ProjectRepository,
  type HygieneChangeRow,
  type HygieneProposalRow,
  type HygieneRunRow,
  type ItemFields,
  type MemoryItemsTable,
} from '@memex/db';
import {
  DomainError,
  type ApplyProposalBody,
  type HygieneRunQuery,
  type ListChangesQuery,
  type ListProposalsQuery,
  type StartHygieneRunBody,
} from '@memex/domain';
import {
  isLive,
  mergedKeep,
  needsOperatorInput,
  qualityPatch,
  type MergeSide,
  type QualityProblem,
} from '@memex/hygiene';
import { JobQueue, type Principal } from '@memex/server';
import type { Selectable } from 'kysely';

type ItemRow = Selectable<MemoryItemsTable>;

/** The project a caller may act on: its key's, or (the admin token) any. Null: every project. */
const scope = (p: Principal): string | null => (p.kind === 'project' ? p.projectId : null);
const actorOf = (p: Principal): string => (p.kind === 'project' ? 'project-key' : 'admin-token');

const side = (row: ItemRow): MergeSide => ({
  id: row.id,
  files: row.files,
  tags: row.tags,
  evidenceRefs: row.evidence_refs,
  evidenceSpans: row.evidence_spans,
  confidence: row.confidence,
  importance: row.importance,
  mergedFrom: row.merged_from,
});

function runView(run: HygieneRunRow) {
  return {
    runId: run.id,
    projectId: run.project_id,
    mode: run.mode,
    trigger: run.trigger,
    requestedBy: run.requested_by,
    status: run.status,
    error: run.error,
    itemsScanned: run.items_scanned,
    counts: run.counts,
    createdAt: run.created_at.toISOString(),
    startedAt: run.started_at?.toISOString() ?? null,
    finishedAt: run.finished_at?.toISOString() ?? null,
  };
}

function changeView(c: HygieneChangeRow) {
  return {
    changeId: c.id,
    itemId: c.item_id,
    title: c.title,
    rule: c.rule,
    from: c.before.status ?? null,
    to: c.after.status ?? null,
    before: c.before,
    after: c.after,
    reason: c.reason,
    applied: c.applied,
    revertedAt: c.reverted_at?.toISOString() ?? null,
  };
}

function proposalView(p: HygieneProposalRow) {
  return {
    proposalId: p.id,
    kind: p.kind,
    rule: p.rule,
    itemIds: p.item_ids,
    status: p.status,
    reason: p.reason,
    detail: p.detail,
    runId: p.run_id,
    decidedBy: p.decided_by,
    decidedAt: p.decided_at?.toISOString() ?? null,
  };
}

/** What a proposal's reader compares: each item as it is now. */
function proposalItemView(row: ItemRow) {
  return {
    itemId: row.id,
    type: row.type,
    status: row.status,
    title: row.title,
    facts: row.facts,
    rationale: row.rationale,
    files: row.files,
    tags: row.tags,
    confidence: row.confidence,
    importance: row.importance,
    evidenceCount: row.evidence_spans.length,
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A page's next cursor: the last id shown when the page is full. */
function nextCursor(ids: string[], limit: number): string | null {
  return ids.length === limit ? ids[limit - 1]! : null;
}

/** Starts hygiene runs and carries out operators' decisions on what they found. */
@Injectable()
export class HygieneReviewService {
  constructor(
    private readonly runs: HygieneRunRepository,
    private readonly review: HygieneReviewRepository,
    private readonly projects: ProjectRepository,
    private readonly jobs: JobQueue,
  ) {}

  async start(caller: Principal, body: StartHygieneRunBody) {
    let projectId = body.projectId;
    if (caller.kind === 'project') {
      if (projectId && projectId !== caller.projectId) {
        throw new DomainError(
          'FORBIDDEN',
          'a project key can start runs of its own project only; use the admin token',
          {
            projectId,
          },
        );
      }
      projectId = caller.projectId;
    } else if (!projectId) {
      throw new DomainError('VALIDATION_FAILED', 'projectId is required with the admin token', {
        issues: [{ path: 'projectId', message: 'required' }],
      });
    } else if (!(await this.projects.findById(projectId))) {
      throw new DomainError('NOT_FOUND', `no project ${projectId}`, { projectId });
    }
    const run = await this.runs.create({
      projectId,
      mode: body.mode,
      trigger: 'operator',
      requestedBy: actorOf(caller),
    });
    try {
      await this.jobs.enqueue('hygienePass', { projectId, mode: body.mode, trigger: 'operator', runId: run.id });
    } catch (error) {
      await this.runs.markFailed(run.id, 'the queue was unreachable; nothing ran');
      throw new DomainError('QUEUE_UNAVAILABLE', 'the job queue is unreachable; try again shortly', {
        runId: run.id,
        cause: error instanceof Error ? error.message : String(error),
      });
    }
    return { runId: run.id, projectId, mode: run.mode, status: run.status };
  }

  async list(caller: Principal, projectId: string | undefined, limit: number) {
    const runs = await this.runs.list(this.listScope(caller, projectId), limit);
    return { runs: runs.map(runView) };
  }

  /** The project a list covers: the key's own, or (the admin token) the one named, else every project. */
  private listScope(caller: Principal, projectId: string | undefined): string | null {
    const own = scope(caller);
    if (own !== null && projectId && projectId !== own) {
      throw new DomainError('FORBIDDEN', 'a project key can list its own project only', { projectId });
    }
    return own ?? projectId ?? null;
  }

  async proposals(caller: Principal, query: ListProposalsQuery) {
    const { proposals, items } = await this.review.listProposals(
      this.listScope(caller, query.projectId),
      query.status,
      query.cursor,
      query.limit,
    );
    const byId = new Map(items.map((i) => [i.id, i]));
    return {
      proposals: proposals.map((p) => ({
        ...proposalView(p),
        // An item deleted since is left out; applying the proposal then answers PROPOSAL_OUTDATED.
        items: p.item_ids.flatMap((id) => {
          const item = byId.get(id);
          return item ? [proposalItemView(item)] : [];
        }),
      })),
      nextCursor: nextCursor(
        proposals.map((p) => p.id),
        query.limit,
      ),
    };
  }

  async changes(caller: Principal, query: ListChangesQuery) {
    const changes = await this.review.listChanges(this.listScope(caller, query.projectId), query.cursor, query.limit);
    return {
      changes: changes.map((c) => ({
        ...changeView(c),
        proposalId: c.proposal_id,
        runId: c.run_id,
        createdAt: c.created_at.toISOString(),
      })),
      nextCursor: nextCursor(
        changes.map((c) => c.id),
        query.limit,
      ),
    };
  }

  async get(caller: Principal, runId: string, query: HygieneRunQuery) {
    const run = await this.runs.find(runId, scope(caller));
    const [changes, proposals] = await Promise.all([
      this.review.runChanges(run.id, query.changesAfter, query.limit + 1),
      this.review.runProposals(run.id, query.proposalsAfter, query.limit + 1),
    ]);
    const page = <T extends { id: string }>(rows: T[]) => ({
      rows: rows.slice(0, query.limit),
      next: rows.length > query.limit ? rows[query.limit - 1]!.id : null,
    });
    const c = page(changes);
    const p = page(proposals);
    return {
      ...runView(run),
      changes: c.rows.map(changeView),
      nextChangesAfter: c.next,
      proposals: p.rows.map(proposalView),
      nextProposalsAfter: p.next,
    };
  }

  async apply(caller: Principal, proposalId: string, body: ApplyProposalBody) {
    const who = { actor: actorOf(caller), reason: body.reason ?? null };
    const result = await this.review.applyProposal(scope(caller), proposalId, who, (proposal, items) => {
      const live = (i: ItemRow) => i.status === 'active' || i.status === 'stale' || i.status === 'review';
      if (proposal.kind === 'merge') {
        if (body.patch) throw new DomainError('VALIDATION_FAILED', 'a merge takes keepId, not patch', {});
        const gone = items.filter((i) => !isLive(i.status));
        if (gone.length > 0) {
          throw new DomainError('PROPOSAL_OUTDATED', 'some items of this merge are no longer active or stale', {
            items: gone.map((i) => ({ itemId: i.id, status: i.status })),
          });
        }
        const keepId = body.keepId ?? (proposal.detail.keepId as string);
        const keep = items.find((i) => i.id === keepId);
        if (!keep) throw new DomainError('VALIDATION_FAILED', `keepId ${keepId} is not one of this merge's items`, {});
        const others = items.filter((i) => i !== keep);
        const merged = mergedKeep(side(keep), others.map(side));
        const keepSet: ItemFields = {
          merged_from: merged.mergedFrom,
          files: merged.files,
          tags: merged.tags,
          evidence_refs: merged.evidenceRefs,
          evidence_spans: merged.evidenceSpans,
          confidence: merged.confidence,
          importance: merged.importance,
        };
        return [
          { itemId: keep.id, set: keepSet, change: 'merged' as const },
          ...others.map((o) => ({
            itemId: o.id,
            set: { status: 'superseded', superseded_by: keep.id },
            change: 'superseded' as const,
          })),
        ];
      }
      if (body.keepId) throw new DomainError('VALIDATION_FAILED', 'an edit takes patch, not keepId', {});
      const item = items[0]!;
      if (!live(item)) {
        throw new DomainError('PROPOSAL_OUTDATED', `the item is ${item.status} now`, { status: item.status });
      }
      const problems = proposal.detail.problems as QualityProblem[];
      if (needsOperatorInput(problems) && !body.patch?.rationale) {
        throw new DomainError(
          'INPUT_REQUIRED',
          'this Decision has no rationale: send patch.rationale to apply the edit',
          {
            required: ['patch.rationale'],
          },
        );
      }
      const fix = qualityPatch(item, problems);
      return [{ itemId: item.id, set: { ...fix, ...body.patch }, change: 'edited' as const }];
    });
    return { proposal: proposalView(result.proposal), changeIds: result.changeIds };
  }

  async reject(caller: Principal, proposalId: string, reason: string | undefined) {
    const proposal = await this.review.rejectProposal(scope(caller), proposalId, {
      actor: actorOf(caller),
      reason: reason ?? null,
    });
    return { proposal: proposalView(proposal) };
  }

  async revert(caller: Principal, changeId: string, reason: string | undefined) {
    const { projectId: _projectId, ...reverted } = await this.review.revert(scope(caller), changeId, {
      actor: actorOf(caller),
      reason: reason ?? null,
    });
    return reverted;
  }
}
