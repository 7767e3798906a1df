import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { DomainError, newId } from '@memex/domain';
import type { DB, HygieneChangesTable, HygieneProposalsTable, MemoryItemsTable } from '../schema';
import { KYSELY } from '../tokens';
import { ItemChanges } from './item-changes';
import { ItemWriter, itemTransaction } from './item-writer';
import { lockItemRows } from './item-rows';

export type HygieneChangeRow = Selectable<HygieneChangesTable> & { title: string };
export type HygieneProposalRow = Selectable<HygieneProposalsTable>;
type ItemRow = Selectable<MemoryItemsTable>;

/** The columns a hygiene change may touch, and so the only ones a revert writes back. */
const REVERTIBLE = [
  'status',
  'superseded_by',
  'merged_from',
  'files',
  'tags',
  'evidence_refs',
  'evidence_spans',
  'confidence',
  'importance',
  'title',
  'facts',
  'rationale',
  'impact',
] as const;
type RevertibleColumn = (typeof REVERTIBLE)[number];
export type ItemFields = Partial<Record<RevertibleColumn, unknown>>;

export interface Operator {
  actor: string;
  reason: string | null;
}

function operatorOf(who: Operator) {
  return { actorType: 'operator', actor: who.actor } as const;
}

/** JSON with object keys sorted, so values read back from jsonb compare equal to what was written. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The values of `columns` in a row, as JSON would hold them. */
function pick(row: ItemRow, columns: readonly string[]): ItemFields {
  return Object.fromEntries(columns.map((c) => [c, row[c as keyof ItemRow] ?? null]));
}

/** A row update from stored fields: jsonb columns go back as JSON text. */
function toUpdate(fields: ItemFields): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const column of REVERTIBLE) {
    if (!(column in fields)) continue;
    set[column] = column === 'evidence_spans' ? JSON.stringify(fields[column]) : fields[column];
  }
  return set;
}

/**
 * The locked item a change can be reverted on, or the reason it cannot: a dry run's change
 * was never made, a change goes back once, and an item that changed since keeps that change.
 */
function revertible(change: Selectable<HygieneChangesTable>, items: ItemRow[]): ItemRow {
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
  const item = items.find((i) => i.id === change.item_id);
  if (!item) throw new DomainError('ITEM_NOT_FOUND', `item ${change.item_id} no longer exists`, { changeId });
  const columns = Object.keys(change.after).filter((c) => (REVERTIBLE as readonly string[]).includes(c));
  const current = pick(item, columns);
  const differing = columns.filter((c) => canonical(current[c as RevertibleColumn]) !== canonical(change.after[c]));
  // Equal values are not enough: the status may have moved away and back since (A → B → A).
  const movedSince = columns.includes('status') && item.status_changed_at.getTime() !== change.created_at.getTime();
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

/**
 * What operators do with a hygiene run's results: read its changes and proposals, apply or
 * reject proposals, revert changes. Every write takes the project's item lock (as enrichment
 * does), records item history and the change, and bumps the memory revision, in one transaction.
 */
@Injectable()
export class HygieneReviewRepository {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    private readonly itemChanges: ItemChanges,
  ) {}

  /** Changes with the title of their item. */
  private changes() {
    return this.db
      .selectFrom('hygiene_changes as c')
      .innerJoin('memory_items as m', 'm.id', 'c.item_id')
      .selectAll('c')
      .select('m.title');
  }

  async runChanges(runId: string, after: string | undefined, limit: number): Promise<HygieneChangeRow[]> {
    let query = this.changes().where('c.run_id', '=', runId);
    if (after) query = query.where('c.id', '>', after);
    return query.orderBy('c.id').limit(limit).execute();
  }

  async runProposals(runId: string, after: string | undefined, limit: number): Promise<HygieneProposalRow[]> {
    let query = this.db
      .selectFrom('hygiene_run_proposals as r')
      .innerJoin('hygiene_proposals as p', 'p.id', 'r.proposal_id')
      .selectAll('p')
      .where('r.run_id', '=', runId);
    if (after) query = query.where('p.id', '>', after);
    return query.orderBy('p.id').limit(limit).execute();
  }

  /** Proposals of a status across runs, newest first, with their items as they are now. */
  async listProposals(
    projectId: string | null,
    status: HygieneProposalRow['status'],
    cursor: string | undefined,
    limit: number,
  ): Promise<{ proposals: HygieneProposalRow[]; items: ItemRow[] }> {
    let query = this.db.selectFrom('hygiene_proposals').selectAll().where('status', '=', status);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    if (cursor) query = query.where('id', '<', cursor);
    const proposals = await query.orderBy('id', 'desc').limit(limit).execute();
    const ids = [...new Set(proposals.flatMap((p) => p.item_ids))];
    const items =
      ids.length === 0 ? [] : await this.db.selectFrom('memory_items').selectAll().where('id', 'in', ids).execute();
    return { proposals, items };
  }

  /** Applied changes (a pass's moves, operators' decisions and reverts), newest first. */
  async listChanges(projectId: string | null, cursor: string | undefined, limit: number): Promise<HygieneChangeRow[]> {
    let query = this.changes().where('c.applied', '=', true);
    if (projectId !== null) query = query.where('c.project_id', '=', projectId);
    if (cursor) query = query.where('c.id', '<', cursor);
    return query.orderBy('c.id', 'desc').limit(limit).execute();
  }

  /**
   * (item, rule) pairs an operator overruled, and nobody changed the item since: a pass leaves
   * them be. Reverting a change overrules its rule; approving an item out of review overrules
   * the conflict rule, which would otherwise send it straight back; restoring an archived item
   * overrules the rules that archive live items (low confidence, code map) in the same way.
   */
  async heldRules(projectId: string): Promise<Set<string>> {
    const { rows } = await sql<{ item_id: string; rule: string }>`
      select distinct c.item_id, c.rule
        from hygiene_changes c join memory_items m on m.id = c.item_id
       where c.project_id = ${projectId} and c.reverted_at is not null and m.updated_at <= c.reverted_at
      union
      select a.item_id, 'conflicting-facts'
        from (select distinct on (h.item_id) h.item_id, h.before->>'status' as from_status,
                     (h.after->>'updated_at')::timestamptz as updated_at
                from item_history h
               where h.project_id = ${projectId} and h.change = 'approve'
               order by h.item_id, h.id desc) a
        join memory_items m on m.id = a.item_id
       where a.from_status = 'review' and m.status = 'active' and m.updated_at = a.updated_at
      union
      select r.item_id, rule.name
        from (select distinct on (h.item_id) h.item_id, (h.after->>'updated_at')::timestamptz as updated_at
                from item_history h
               where h.project_id = ${projectId} and h.change = 'restore'
               order by h.item_id, h.id desc) r
        join memory_items m on m.id = r.item_id
       cross join (values ('archive-code-map'), ('archive-low-confidence')) as rule(name)
       where m.status <> 'archived' and m.updated_at = r.updated_at`.execute(this.db);
    return new Set(rows.map((r) => `${r.item_id}:${r.rule}`));
  }

  /** Applies a pending proposal with `decide`, which gets the locked rows and returns the changes to make. */
  async applyProposal(
    projectId: string | null,
    proposalId: string,
    who: Operator,
    decide: (
      proposal: HygieneProposalRow,
      items: ItemRow[],
    ) => Array<{ itemId: string; set: ItemFields; change: 'merged' | 'superseded' | 'edited' }>,
  ): Promise<{ proposal: HygieneProposalRow; changeIds: string[] }> {
    return itemTransaction(this.db, this.itemChanges, async (open, trx) => {
      // The item lock first, as a pass takes it before it writes proposals: the other order deadlocks.
      const writer = await open(await this.projectOfProposal(trx, projectId, proposalId), operatorOf(who));
      const proposal = await this.lockProposal(trx, projectId, proposalId);
      if (proposal.status === 'expired') {
        throw new DomainError('PROPOSAL_OUTDATED', 'the last hygiene pass no longer found this proposal', {
          proposalId,
        });
      }
      if (proposal.status !== 'pending') {
        throw new DomainError('PROPOSAL_DECIDED', `proposal ${proposalId} is already ${proposal.status}`, {
          status: proposal.status,
        });
      }
      const items = await lockItemRows(trx, proposal.project_id, proposal.item_ids);
      const missing = proposal.item_ids.filter((id) => !items.some((i) => i.id === id));
      if (missing.length > 0) {
        throw new DomainError('PROPOSAL_OUTDATED', 'items of this proposal no longer exist', { missing });
      }
      const changeIds: string[] = [];
      for (const step of decide(proposal, items)) {
        // Nothing left to fix (the item was mended meanwhile): the proposal is settled all the same.
        if (Object.keys(step.set).length === 0) continue;
        const before = items.find((i) => i.id === step.itemId)!;
        changeIds.push(
          await this.write(writer, before, step.set, step.change, who, {
            rule: proposal.rule,
            runId: proposal.run_id,
            proposalId: proposal.id,
          }),
        );
      }
      const decided = await trx
        .updateTable('hygiene_proposals')
        .set({ status: 'applied', decided_by: who.actor, decided_at: new Date() })
        .where('id', '=', proposal.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { proposal: decided, changeIds };
    });
  }

  async rejectProposal(projectId: string | null, proposalId: string, who: Operator): Promise<HygieneProposalRow> {
    return this.db.transaction().execute(async (trx) => {
      const proposal = await this.lockProposal(trx, projectId, proposalId);
      if (proposal.status === 'applied' || proposal.status === 'rejected') {
        throw new DomainError('PROPOSAL_DECIDED', `proposal ${proposalId} is already ${proposal.status}`, {
          status: proposal.status,
        });
      }
      return trx
        .updateTable('hygiene_proposals')
        .set({ status: 'rejected', decided_by: who.actor, decided_at: new Date() })
        .where('id', '=', proposal.id)
        .returningAll()
        .executeTakeFirstOrThrow();
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
  async revert(
    projectId: string | null,
    changeId: string,
    who: Operator,
  ): Promise<{ changeId: string; changeIds: string[]; projectId: string }> {
    return itemTransaction(this.db, this.itemChanges, async (open, trx) => {
      let query = trx.selectFrom('hygiene_changes').selectAll().where('id', '=', changeId);
      if (projectId !== null) query = query.where('project_id', '=', projectId);
      const change = await query.executeTakeFirst();
      if (!change) throw new DomainError('CHANGE_NOT_FOUND', `no hygiene change ${changeId}`, { changeId });
      // The item lock before any change row, in the order every writer takes them.
      const writer = await open(change.project_id, operatorOf(who));
      const together = await trx
        .selectFrom('hygiene_changes')
        .selectAll()
        .where((eb) =>
          change.proposal_id === null
            ? eb('id', '=', change.id)
            : eb.or([
                eb('id', '=', change.id),
                eb('proposal_id', '=', change.proposal_id).and('reverted_at', 'is', null),
              ]),
        )
        .orderBy('id')
        .forUpdate()
        .execute();
      const asked = together.find((c) => c.id === change.id);
      // Gone between the read and the lock (its item deleted, and the change with it).
      if (!asked) throw new DomainError('CHANGE_NOT_FOUND', `no hygiene change ${changeId}`, { changeId });
      const changes = [asked, ...together.filter((c) => c.id !== change.id)];
      const items = await lockItemRows(
        trx,
        change.project_id,
        changes.map((c) => c.item_id),
      );
      const steps = changes.map((c) => ({ change: c, item: revertible(c, items) }));
      const revertIds: string[] = [];
      for (const { change: c, item } of steps) {
        revertIds.push(
          // The reverts of a proposal's changes are one group too: undoing one redoes them all.
          await this.write(writer, item, c.before, 'reverted', who, {
            rule: c.rule,
            runId: c.run_id,
            proposalId: c.proposal_id,
            revertOf: c.id,
          }),
        );
      }
      await trx
        .updateTable('hygiene_changes')
        .set({ reverted_at: new Date(), reverted_by: who.actor })
        .where(
          'id',
          'in',
          changes.map((c) => c.id),
        )
        .execute();
      return { changeId: revertIds[0]!, changeIds: revertIds, projectId: change.project_id };
    });
  }

  private async projectOfProposal(trx: Transaction<DB>, projectId: string | null, proposalId: string): Promise<string> {
    let query = trx.selectFrom('hygiene_proposals').select('project_id').where('id', '=', proposalId);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    const row = await query.executeTakeFirst();
    if (!row) throw new DomainError('PROPOSAL_NOT_FOUND', `no hygiene proposal ${proposalId}`, { proposalId });
    return row.project_id;
  }

  private async lockProposal(
    trx: Transaction<DB>,
    projectId: string | null,
    proposalId: string,
  ): Promise<HygieneProposalRow> {
    let query = trx.selectFrom('hygiene_proposals').selectAll().where('id', '=', proposalId);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    const proposal = await query.forUpdate().executeTakeFirst();
    if (!proposal) throw new DomainError('PROPOSAL_NOT_FOUND', `no hygiene proposal ${proposalId}`, { proposalId });
    return proposal;
  }

  /** One operator change of one item: the row, its history entry and its change record (the return). */
  private async write(
    writer: ItemWriter,
    before: ItemRow,
    set: ItemFields,
    change: string,
    who: Operator,
    origin: { rule: string; runId: string | null; proposalId: string | null; revertOf?: string },
  ): Promise<string> {
    const columns = Object.keys(set);
    // The rule is always named, the operator's own words after it.
    const what = origin.revertOf
      ? `revert of hygiene change ${origin.revertOf} (${origin.rule})`
      : `hygiene ${origin.rule}`;
    const reason = who.reason ? `${what}: ${who.reason}` : what;
    const after = await writer.update(before, toUpdate(set), change, reason, {
      // Status moves are not edits of what the item says; the age rules count from edits only.
      edit: columns.some((c) => c !== 'status' && c !== 'superseded_by'),
      runId: origin.runId,
    });
    const trx = writer.trx;
    const id = newId();
    await trx
      .insertInto('hygiene_changes')
      .values({
        id,
        project_id: before.project_id,
        // Operator changes belong to no pass; their proposal ties them to the run that found it.
        run_id: null,
        proposal_id: origin.proposalId,
        item_id: before.id,
        rule: origin.rule,
        before: canonical(pick(before, columns)),
        after: canonical(pick(after, columns)),
        reason,
        applied: true,
      })
      .execute();
    return id;
  }
}
