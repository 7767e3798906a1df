import { Inject, Injectable } from '@nestjs/common';
import { CompiledQuery, sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  DomainError,
  FACTS_SAMPLE,
  MANUAL_SESSION_ID,
  newId,
  PROPOSAL_MOVES,
  RULES,
  type HygieneItem,
  type HygieneMode,
  type Proposal,
  type Transition,
} from '@memex/domain';
import type { DB, HygieneRunsTable } from '../schema';
import { KYSELY } from '../tokens';
import { ItemChanges } from './item-changes';
import { itemTransaction, type OpenItemWriter } from './item-writer';

export type HygieneRunRow = Selectable<HygieneRunsTable>;

/** Each column named as HygieneItem names it, so rows are items as read. */
const ITEMS_SQL = `
  select id, type, status, title, left(facts, ${FACTS_SAMPLE}) as facts, length(facts) as "factsLength",
         length(rationale) as "rationaleLength", length(impact) as "impactLength",
         cardinality(files) as "fileCount", cardinality(tags) as "tagCount", confidence, importance,
         dedup_hint as "dedupHint", superseded_by as "supersededBy",
         jsonb_array_length(evidence_spans) as "evidenceCount",
         (extract(epoch from created_at) * 1000)::float8 as "createdAt",
         (extract(epoch from updated_at) * 1000)::float8 as "updatedAt",
         (extract(epoch from last_reinforced_at) * 1000)::float8 as "lastReinforcedAt",
         (extract(epoch from resolved_at) * 1000)::float8 as "resolvedAt",
         (extract(epoch from status_changed_at) * 1000)::float8 as "statusChangedAt",
         session_id = '${MANUAL_SESSION_ID}' as manual
    from memory_items
   where project_id = $1 and status in ('active', 'stale', 'review', 'superseded')`;

export interface PassOutcome {
  applied: Transition[];
  skipped: number;
  proposals: number;
}

/** Hygiene runs: their rows, the items a pass reads, and what a pass writes. */
@Injectable()
export class HygieneRunRepository {
  constructor(
    @Inject(KYSELY) private readonly db: Kysely<DB>,
    private readonly itemChanges: ItemChanges,
  ) {}

  async create(run: {
    projectId: string;
    mode: HygieneMode;
    trigger: 'operator' | 'schedule';
    requestedBy: string;
  }): Promise<HygieneRunRow> {
    return this.db
      .insertInto('hygiene_runs')
      .values({
        id: newId(),
        project_id: run.projectId,
        mode: run.mode,
        trigger: run.trigger,
        requested_by: run.requestedBy,
        status: 'queued',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A run, scoped to a project unless `projectId` is null (the admin token sees every project). */
  async find(runId: string, projectId: string | null): Promise<HygieneRunRow> {
    let query = this.db.selectFrom('hygiene_runs').selectAll().where('id', '=', runId);
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    const row = await query.executeTakeFirst();
    if (!row) throw new DomainError('RUN_NOT_FOUND', `no hygiene run ${runId}`, { runId });
    return row;
  }

  async list(projectId: string | null, limit: number): Promise<HygieneRunRow[]> {
    let query = this.db.selectFrom('hygiene_runs').selectAll();
    if (projectId !== null) query = query.where('project_id', '=', projectId);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * The run's status, read inside the pass's lock: a pass that completed committed before it
   * let go, so this sees it. (No row lock: markRunning writes the row from another connection.)
   */
  async statusFor(trx: Transaction<DB>, runId: string): Promise<HygieneRunRow['status'] | undefined> {
    const row = await trx.selectFrom('hygiene_runs').select('status').where('id', '=', runId).executeTakeFirst();
    return row?.status;
  }

  async markRunning(trx: Transaction<DB>, runId: string): Promise<void> {
    await trx
      .updateTable('hygiene_runs')
      .set({ status: 'running', started_at: new Date() })
      .where('id', '=', runId)
      .execute();
  }

  /**
   * Scheduled runs that changed and found nothing, once older than `days`: an hourly pass
   * over every project would otherwise grow the table without end. Runs that did something
   * stay, so their changes can be reviewed and reverted.
   */
  async pruneIdle(days: number): Promise<number> {
    const result = await sql`
      delete from hygiene_runs r
       where r.trigger = 'schedule' and r.status = 'completed'
         and r.finished_at < now() - make_interval(days => ${days})
         and not exists (select 1 from hygiene_changes c where c.run_id = r.id)
         and not exists (select 1 from hygiene_run_proposals p where p.run_id = r.id)
         and not exists (select 1 from hygiene_proposals p where p.run_id = r.id)`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Operator runs still queued `minutes` after they were asked for. Their job should have
   * started long before; if Redis lost it, re-adding it under the same job id brings it back,
   * and is a no-op while BullMQ still holds it.
   */
  async queuedSince(
    minutes: number,
    after: string | null,
    limit: number,
  ): Promise<Array<Pick<HygieneRunRow, 'id' | 'project_id' | 'mode'>>> {
    return this.db
      .selectFrom('hygiene_runs')
      .select(['id', 'project_id', 'mode'])
      .where('trigger', '=', 'operator')
      .where('status', '=', 'queued')
      .where('created_at', '<', sql<Date>`now() - make_interval(mins => ${minutes})`)
      .where('id', '>', after ?? '')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** A failed attempt that will be retried: the run waits again, with the error so far. */
  async requeue(runId: string, error: string): Promise<void> {
    await this.db
      .updateTable('hygiene_runs')
      .set({ status: 'queued', error: error.slice(0, 2000) })
      .where('id', '=', runId)
      .execute();
  }

  async markFailed(runId: string, error: string): Promise<void> {
    await this.db
      .updateTable('hygiene_runs')
      .set({ status: 'failed', error: error.slice(0, 2000), finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
  }

  /**
   * Runs `pass` holding the project's hygiene lock, in one item transaction (its item writes
   * announced once it commits), or returns `{ busy: true }` at once when another pass of the
   * project holds it.
   */
  async withPassLock<T>(
    projectId: string,
    pass: (trx: Transaction<DB>, open: OpenItemWriter) => Promise<T>,
  ): Promise<{ busy: true } | { busy: false; value: T }> {
    return itemTransaction(this.db, this.itemChanges, async (open, trx) => {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_xact_lock(hashtext(${`memex:hygiene:${projectId}`})) as locked`.execute(trx);
      if (!rows[0]?.locked) return { busy: true as const };
      return { busy: false as const, value: await pass(trx, open) };
    });
  }

  /**
   * Every item a rule may act on (archived is terminal), as lean as the rules need, read in
   * the pass's transaction: the embedded database has one connection, which the pass holds.
   */
  async items(trx: Transaction<DB>, projectId: string): Promise<HygieneItem[]> {
    const { rows } = await trx.executeQuery(CompiledQuery.raw(ITEMS_SQL, [projectId]));
    return rows as HygieneItem[];
  }

  /**
   * Writes what a pass found, in the pass's transaction: in `apply` mode the moves (through the
   * project's item writer, which takes the item lock enrichment also takes), in `dry-run` mode
   * only their record; the proposals either way; then the run's counts.
   */
  async recordPass(
    trx: Transaction<DB>,
    open: OpenItemWriter,
    run: { id: string; projectId: string; mode: HygieneMode },
    found: {
      items: HygieneItem[];
      transitions: Transition[];
      proposals: Array<{ proposal: Proposal; fingerprint: string }>;
    },
  ): Promise<PassOutcome> {
    const { projectId } = run;
    let applied = found.transitions;
    if (found.transitions.length > 0 && run.mode === 'apply') {
      const updatedMs = new Map(found.items.map((i) => [i.id, i.updatedAt]));
      const writer = await open(projectId, { actorType: 'rule', actor: 'hygiene', runId: run.id });
      const made = await writer.moveStatuses(
        found.transitions.map((t) => ({
          itemId: t.itemId,
          from: t.from,
          to: t.to,
          updatedMs: updatedMs.get(t.itemId) ?? null,
          actor: t.rule,
          reason: t.reason,
        })),
      );
      const moved = new Set(made.map((m) => m.itemId));
      applied = found.transitions.filter((t) => moved.has(t.itemId));
      await this.recordChanges(trx, run, applied, true);
    } else {
      await this.recordChanges(trx, run, found.transitions, false);
    }

    const proposals = found.proposals.map(({ proposal, fingerprint }) => ({
      id: newId(),
      kind: proposal.kind,
      rule: proposal.rule,
      item_ids: proposal.itemIds,
      fingerprint,
      detail: proposalDetail(proposal),
      reason: proposal.reason,
    }));
    // A proposal found again is the same proposal (its fingerprint); a rejected or applied one
    // is never proposed again, an expired one (not found by the last pass) comes back.
    const { rows: linked } = await sql<{ rule: string }>`
      with found as (
        insert into hygiene_proposals as h (id, project_id, run_id, kind, rule, item_ids, fingerprint, detail, reason, status)
        select p.id, ${projectId}, ${run.id}, p.kind, p.rule, array(select jsonb_array_elements_text(p.item_ids)),
               p.fingerprint, p.detail, p.reason, ${PROPOSAL_MOVES.found.to}
          from jsonb_to_recordset(${JSON.stringify(proposals)}::jsonb)
            as p(id text, kind text, rule text, item_ids jsonb, fingerprint text, detail jsonb, reason text)
        on conflict (project_id, fingerprint) do update
           set detail = excluded.detail, reason = excluded.reason, status = ${PROPOSAL_MOVES.found.to}
         where h.status = any(${[...PROPOSAL_MOVES.found.from]}::text[])
        returning h.id, h.rule
      ), expired as (
        update hygiene_proposals set status = ${PROPOSAL_MOVES.lost.to}
         where ${run.mode === 'apply'} and project_id = ${projectId} and status = any(${[...PROPOSAL_MOVES.lost.from]}::text[])
           and id not in (select id from found)
      )
      , linked as (
        insert into hygiene_run_proposals (run_id, proposal_id) select ${run.id}, id from found
      )
      select rule from found`.execute(trx);

    const counts: Record<string, number> = Object.fromEntries(RULES.map((r) => [r, 0]));
    for (const t of applied) counts[t.rule] = (counts[t.rule] ?? 0) + 1;
    for (const { rule } of linked) counts[rule] = (counts[rule] ?? 0) + 1;
    await trx
      .updateTable('hygiene_runs')
      .set({
        status: 'completed',
        items_scanned: found.items.length,
        counts: JSON.stringify({ ...counts, skipped: found.transitions.length - applied.length }),
        finished_at: new Date(),
      })
      .where('id', '=', run.id)
      .execute();
    return { applied, skipped: found.transitions.length - applied.length, proposals: linked.length };
  }

  /** The run's record of its moves: made (`applied`) or, in a dry run, only found. */
  private async recordChanges(
    trx: Transaction<DB>,
    run: { id: string; projectId: string },
    transitions: readonly Transition[],
    applied: boolean,
  ): Promise<void> {
    if (transitions.length === 0) return;
    const changes = transitions.map((t) => ({
      id: newId(),
      item_id: t.itemId,
      from_status: t.from,
      to_status: t.to,
      rule: t.rule,
      reason: t.reason,
    }));
    await sql`
      insert into hygiene_changes (id, project_id, run_id, item_id, rule, before, after, reason, applied)
      select c.id, ${run.projectId}, ${run.id}, c.item_id, c.rule, jsonb_build_object('status', c.from_status),
             jsonb_build_object('status', c.to_status), c.reason, ${applied}
        from json_to_recordset(${JSON.stringify(changes)}::json)
          as c(id text, item_id text, from_status text, to_status text, rule text, reason text)`.execute(trx);
  }
}

/** What a proposal found, beyond its ids and reason: a merge's keeper, an edit's problems. */
function proposalDetail(p: Proposal): Record<string, unknown> {
  return p.kind === 'merge' ? { keepId: p.keepId, basis: p.basis, similarity: p.similarity } : { problems: p.problems };
}
