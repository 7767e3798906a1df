import { Injectable } from '@nestjs/common';
import {
  HygieneReviewRepository,
  HygieneRunRepository,
  ProjectRepository,
  type HygieneChangeRow,
  type HygieneProposalRow,
  type HygieneRunRow,
  type MemoryItemsTable,
} from '@memex/db';
import {
  DomainError,
  type ApplyProposalBody,
  type ChangePageView,
  type HygieneChangeView,
  type HygieneProposalView,
  type HygieneRunDetailView,
  type HygieneRunListView,
  type HygieneRunView,
  type ItemType,
  type ProposalDetail,
  type ProposalItemView,
  type ProposalPageView,
  type HygieneRunQuery,
  type ListChangesQuery,
  type ListProposalsQuery,
  type StartHygieneRunBody,
} from '@memex/domain';
import { assertApplicable, assertRejectable, assertRevertible, planProposal } from '@memex/hygiene';
import { JobQueue, type Principal } from '@memex/server';
import type { Selectable } from 'kysely';

type ItemRow = Selectable<MemoryItemsTable>;

/** The project a caller may act on: its key's, or (the admin token) any. Null: every project. */
const scope = (p: Principal): string | null => (p.kind === 'project' ? p.projectId : null);
const actorOf = (p: Principal): string => (p.kind === 'project' ? 'project-key' : 'admin-token');

function runView(run: HygieneRunRow): HygieneRunView {
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

function changeView(c: HygieneChangeRow): HygieneChangeView {
  return {
    changeId: c.id,
    itemId: c.item_id,
    title: c.title,
    rule: c.rule,
    from: (c.before.status as string | undefined) ?? null,
    to: (c.after.status as string | undefined) ?? null,
    before: c.before,
    after: c.after,
    reason: c.reason,
    applied: c.applied,
    revertedAt: c.reverted_at?.toISOString() ?? null,
  };
}

function proposalView(p: HygieneProposalRow): HygieneProposalView {
  return {
    proposalId: p.id,
    kind: p.kind,
    rule: p.rule,
    itemIds: p.item_ids,
    status: p.status,
    reason: p.reason,
    // Written by libs/hygiene's rules in this shape.
    detail: p.detail as ProposalDetail,
    runId: p.run_id,
    decidedBy: p.decided_by,
    decidedAt: p.decided_at?.toISOString() ?? null,
  };
}

/** What a proposal's reader compares: each item as it is now. */
function proposalItemView(row: ItemRow): ProposalItemView {
  return {
    itemId: row.id,
    // Columns written only from the domain's validated values.
    type: row.type as ItemType,
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

  async list(caller: Principal, projectId: string | undefined, limit: number): Promise<HygieneRunListView> {
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

  async proposals(caller: Principal, query: ListProposalsQuery): Promise<ProposalPageView> {
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

  async changes(caller: Principal, query: ListChangesQuery): Promise<ChangePageView> {
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

  async get(caller: Principal, runId: string, query: HygieneRunQuery): Promise<HygieneRunDetailView> {
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
    return this.review.decide(async (tx) => {
      const { proposal, items } = await tx.proposal(scope(caller), proposalId, who);
      assertApplicable(proposal, items);
      const changeIds: string[] = [];
      for (const step of planProposal(proposal, items, body)) {
        // Nothing left to fix (the item was mended meanwhile): the proposal is settled all the same.
        if (Object.keys(step.set).length === 0) continue;
        const before = items.find((i) => i.id === step.itemId)!;
        changeIds.push(
          await tx.write(before, step.set, step.change, who, {
            rule: proposal.rule,
            runId: proposal.run_id,
            proposalId: proposal.id,
          }),
        );
      }
      return { proposal: proposalView(await tx.decideProposal(proposal.id, 'apply', who)), changeIds };
    });
  }

  async reject(caller: Principal, proposalId: string, reason: string | undefined) {
    const who = { actor: actorOf(caller), reason: reason ?? null };
    return this.review.decide(async (tx) => {
      const proposal = await tx.lockProposal(scope(caller), proposalId);
      assertRejectable(proposal);
      return { proposal: proposalView(await tx.decideProposal(proposal.id, 'reject', who)) };
    });
  }

  /**
   * Puts back what an applied change took away, if the item still holds what the change
   * left: a later change to those fields is never silently undone. The changes of one applied
   * proposal go back together (a merge touched the kept item and each absorbed one): undoing
   * one alone would leave the kept item listing an item that is live again; their reverts
   * belong to the proposal as well, so they too go back together. `changeIds` holds every
   * revert made, the one asked for first.
   */
  async revert(caller: Principal, changeId: string, reason: string | undefined) {
    const who = { actor: actorOf(caller), reason: reason ?? null };
    return this.review.decide(async (tx) => {
      const { changes, items } = await tx.changeGroup(scope(caller), changeId, who);
      const steps = changes.map((c) => ({
        change: c,
        item: assertRevertible(
          c,
          items.find((i) => i.id === c.item_id),
        ) as (typeof items)[number],
      }));
      const revertIds: string[] = [];
      for (const { change, item } of steps) {
        // The reverts of a proposal's changes are one group too: undoing one redoes them all.
        revertIds.push(
          await tx.write(item, change.before, 'reverted', who, {
            rule: change.rule,
            runId: change.run_id,
            proposalId: change.proposal_id,
            revertOf: change.id,
          }),
        );
      }
      await tx.markReverted(
        changes.map((c) => c.id),
        who,
      );
      return { changeId: revertIds[0]!, changeIds: revertIds };
    });
  }
}
