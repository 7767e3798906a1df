import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  canonical,
  DomainError,
  newId,
  pickFields,
  PROPOSAL_MOVES,
  REVERTIBLE_FIELDS,
  type ChangeFields,
} from '@memex/domain';
import type { DB, HygieneChangesTable, HygieneProposalsTable, MemoryItemsTable } from '../schema';
import { KYSELY } from '../tokens';
import { ItemChanges } from './item-changes';
import { itemTransaction, type ItemWriter } from './item-writer';
import { lockItemRows } from './item-rows';

export type HygieneChangeRow = Selectable<HygieneChangesTable> & { title: string };
export type HygieneProposalRow = Selectable<HygieneProposalsTable>;
type ItemRow = Selectable<MemoryItemsTable>;

export interface Operator {
  actor: string;
  reason: string | null;
}

function operatorOf(who: Operator) {
  return { actorType: 'operator', actor: who.actor } as const;
}

/** A row update from change fields: jsonb columns go back as JSON text. */
function toUpdate(fields: ChangeFields): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const column of REVERTIBLE_FIELDS) {
    if (!(column in fields)) continue;
    set[column] = column === 'evidence_spans' ? JSON.stringify(fields[column]) : fields[column];
  }
  return set;
}

/** Where an operator change came from: the rule, its run and proposal, or the change it reverts. */
export interface ChangeOrigin {
  rule: string;
  runId: string | null;
  proposalId: string | null;
  revertOf?: string;
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
  async heldRules(trx: Transaction<DB>, projectId: string): Promise<Set<string>> {
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
       where m.status <> 'archived' and m.updated_at = r.updated_at`.execute(trx);
    return new Set(rows.map((r) => `${r.item_id}:${r.rule}`));
  }

  /**
   * One operator decision (apply, reject, revert) in one transaction: the caller reads and
   * locks through the `ReviewTransaction`, decides with the pure rules, and writes through
   * it. Item changes go through the item writer and are announced after the commit.
   */
  decide<T>(work: (tx: ReviewTransaction) => Promise<T>): Promise<T> {
    return itemTransaction(this.db, this.itemChanges, (open, trx) => work(new ReviewTransaction(trx, open)));
  }
}

type OpenWriter = (projectId: string, actor: ReturnType<typeof operatorOf>) => Promise<ItemWriter>;

/**
 * The reads, locks and writes of one operator decision, in its transaction. Locks are taken
 * in the order every writer keeps: the project's items first, then proposal or change rows,
 * then item rows.
 */
export class ReviewTransaction {
  private writer: ItemWriter | undefined;

  constructor(
    private readonly trx: Transaction<DB>,
    private readonly open: OpenWriter,
  ) {}

  /** A proposal and its items, locked for a decision (items as they are now; some may be gone). */
  async proposal(
    projectId: string | null,
    proposalId: string,
    who: Operator,
  ): Promise<{ proposal: HygieneProposalRow; items: ItemRow[] }> {
    // The item lock first, as a pass takes it before it writes proposals: the other order deadlocks.
    this.writer = await this.open(await this.projectOfProposal(projectId, proposalId), operatorOf(who));
    const proposal = await this.lockProposal(projectId, proposalId);
    return { proposal, items: await lockItemRows(this.trx, proposal.project_id, proposal.item_ids) };
  }

  /** A proposal alone, locked (a rejection changes no item). */
  lockProposal(projectId: string | null, proposalId: string): Promise<HygieneProposalRow> {
    let query = this.trx.selectFrom('hygiene_proposals').selectAll().where('id', '=', proposalId);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    return query
      .forUpdate()
      .executeTakeFirst()
      .then((proposal) => {
        if (!proposal) {
          throw new DomainError('PROPOSAL_NOT_FOUND', `no hygiene proposal ${proposalId}`, { proposalId });
        }
        return proposal;
      });
  }

  /**
   * A change with the changes that go back with it (the others of its proposal not yet
   * reverted), the one asked for first, and their items, all locked.
   */
  async changeGroup(
    projectId: string | null,
    changeId: string,
    who: Operator,
  ): Promise<{ changes: Array<Selectable<HygieneChangesTable>>; items: ItemRow[] }> {
    let query = this.trx.selectFrom('hygiene_changes').selectAll().where('id', '=', changeId);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    const change = await query.executeTakeFirst();
    if (!change) throw new DomainError('CHANGE_NOT_FOUND', `no hygiene change ${changeId}`, { changeId });
    // The item lock before any change row, in the order every writer takes them.
    this.writer = await this.open(change.project_id, operatorOf(who));
    const together = await this.trx
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
      this.trx,
      change.project_id,
      changes.map((c) => c.item_id),
    );
    return { changes, items };
  }

  /** One operator change of one item: the row, its history entry and its change record (the return). */
  async write(
    before: ItemRow,
    set: ChangeFields,
    change: string,
    who: Operator,
    origin: ChangeOrigin,
  ): Promise<string> {
    if (!this.writer) throw new Error('ReviewTransaction.write before the project was locked');
    const columns = Object.keys(set);
    // The rule is always named, the operator's own words after it.
    const what = origin.revertOf
      ? `revert of hygiene change ${origin.revertOf} (${origin.rule})`
      : `hygiene ${origin.rule}`;
    const reason = who.reason ? `${what}: ${who.reason}` : what;
    const after = await this.writer.update(before, toUpdate(set), change, reason, {
      // Status moves are not edits of what the item says; the age rules count from edits only.
      edit: columns.some((c) => c !== 'status' && c !== 'superseded_by'),
      runId: origin.runId,
    });
    const id = newId();
    await this.trx
      .insertInto('hygiene_changes')
      .values({
        id,
        project_id: before.project_id,
        // Operator changes belong to no pass; their proposal ties them to the run that found it.
        run_id: null,
        proposal_id: origin.proposalId,
        item_id: before.id,
        rule: origin.rule,
        before: canonical(pickFields(before, columns)),
        after: canonical(pickFields(after, columns)),
        reason,
        applied: true,
      })
      .execute();
    return id;
  }

  /** An operator's decision on a locked proposal the review rules allowed (PROPOSAL_MOVES). */
  decideProposal(proposalId: string, move: 'apply' | 'reject', who: Operator): Promise<HygieneProposalRow> {
    return this.trx
      .updateTable('hygiene_proposals')
      .set({ status: PROPOSAL_MOVES[move].to, decided_by: who.actor, decided_at: new Date() })
      .where('id', '=', proposalId)
      .where('status', 'in', [...PROPOSAL_MOVES[move].from])
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async markReverted(changeIds: string[], who: Operator): Promise<void> {
    await this.trx
      .updateTable('hygiene_changes')
      .set({ reverted_at: new Date(), reverted_by: who.actor })
      .where('id', 'in', changeIds)
      .execute();
  }

  private async projectOfProposal(projectId: string | null, proposalId: string): Promise<string> {
    let query = this.trx.selectFrom('hygiene_proposals').select('project_id').where('id', '=', proposalId);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    const row = await query.executeTakeFirst();
    if (!row) throw new DomainError('PROPOSAL_NOT_FOUND', `no hygiene proposal ${proposalId}`, { proposalId });
    return row.project_id;
  }
}
