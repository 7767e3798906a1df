import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { DaySpend, ModelEngineName } from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

export interface UsageEntry {
  tokens: number;
  promptTokens: number;
  completionTokens: number;
  /** Unknown when the engine did not report it and no price was configured. */
  costUsd: number | null;
  calls: number;
}

export interface UsageDay extends UsageEntry {
  day: string;
  engine: string;
}

export interface ModelWindow {
  projectId: string;
  sessionId: string;
  firstSeq: number;
  lastSeq: number;
  engine: ModelEngineName;
  model: string;
  inputChars: number;
  answer: string;
  tokens: number;
  costUsd: number | null;
}

/** The model spend ledger (per project, UTC day and engine) and the answers of windows sent to a model. */
@Injectable()
export class ModelUsageRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** A project's spend on one UTC day, every engine together. */
  async spentOn(projectId: string, day: string): Promise<DaySpend> {
    const row = await this.db
      .selectFrom('llm_usage')
      .select([
        sql<number>`coalesce(sum(tokens), 0)::float8`.as('tokens'),
        sql<number | null>`sum(cost_usd)`.as('cost_usd'),
      ])
      .where('project_id', '=', projectId)
      .where('day', '=', day)
      .executeTakeFirst();
    return { tokens: row?.tokens ?? 0, costUsd: row?.cost_usd ?? null };
  }

  /**
   * Holds `estimate` against the project's day for a call about to be made, unless `refuses`
   * says the day's spend with the calls already in flight leaves no room (then its answer is
   * returned and nothing is held). One project's reservations are taken one at a time (an
   * advisory lock for the transaction), so two workers cannot both take the last of a budget.
   */
  async reserve<R>(
    projectId: string,
    day: string,
    estimate: { tokens: number; costUsd: number | null },
    holdMs: number,
    refuses: (spent: DaySpend, inFlight: Array<{ tokens: number; costUsd: number | null }>) => R | null,
  ): Promise<{ id: number } | { refused: R }> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`memex:model-spend:${projectId}`}))`.execute(trx);
      await trx
        .deleteFrom('model_reservations')
        .where('project_id', '=', projectId)
        .where('expires_at', '<', sql<Date>`now()`)
        .execute();
      const spent = await new ModelUsageRepository(trx).spentOn(projectId, day);
      const held = await trx
        .selectFrom('model_reservations')
        .select(['tokens', 'cost_usd'])
        .where('project_id', '=', projectId)
        .where('day', '=', day)
        .execute();
      const refused = refuses(
        spent,
        held.map((h) => ({ tokens: Number(h.tokens), costUsd: h.cost_usd })),
      );
      if (refused !== null) return { refused };
      const row = await trx
        .insertInto('model_reservations')
        .values({
          project_id: projectId,
          day,
          tokens: estimate.tokens,
          cost_usd: estimate.costUsd,
          expires_at: sql<Date>`now() + ${holdMs} * interval '1 millisecond'`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(row.id) };
    });
  }

  /** The call returned (its real spend is recorded apart): what it held is free again. */
  async release(id: number): Promise<void> {
    await this.db.deleteFrom('model_reservations').where('id', '=', id).execute();
  }

  /** Spend is recorded as soon as it is made, whether or not the window's write then succeeds. */
  async record(projectId: string, day: string, engine: ModelEngineName, entry: UsageEntry): Promise<void> {
    await this.db
      .insertInto('llm_usage')
      .values({
        project_id: projectId,
        day,
        engine,
        tokens: entry.tokens,
        prompt_tokens: entry.promptTokens,
        completion_tokens: entry.completionTokens,
        cost_usd: entry.costUsd,
        calls: entry.calls,
      })
      .onConflict((oc) =>
        oc.columns(['project_id', 'day', 'engine']).doUpdateSet({
          tokens: sql<number>`llm_usage.tokens + excluded.tokens`,
          prompt_tokens: sql<number>`llm_usage.prompt_tokens + excluded.prompt_tokens`,
          completion_tokens: sql<number>`llm_usage.completion_tokens + excluded.completion_tokens`,
          // A day stays unknown only while none of its calls was priced.
          cost_usd: sql<number | null>`case when llm_usage.cost_usd is null and excluded.cost_usd is null then null
            else coalesce(llm_usage.cost_usd, 0) + coalesce(excluded.cost_usd, 0) end`,
          calls: sql<number>`llm_usage.calls + excluded.calls`,
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }

  /** A project's spend per day and engine from `since` (a UTC day) on, newest first. */
  async daysSince(projectId: string, since: string): Promise<UsageDay[]> {
    const rows = await this.db
      .selectFrom('llm_usage')
      .select([
        sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
        'engine',
        'tokens',
        'prompt_tokens',
        'completion_tokens',
        'cost_usd',
        'calls',
      ])
      .where('project_id', '=', projectId)
      .where('day', '>=', since)
      .orderBy('day', 'desc')
      .orderBy('engine')
      .execute();
    return rows.map((r) => ({
      day: r.day,
      engine: r.engine,
      tokens: r.tokens,
      promptTokens: r.prompt_tokens,
      completionTokens: r.completion_tokens,
      costUsd: r.cost_usd,
      calls: r.calls,
    }));
  }

  /** The answer a model already gave for exactly this window of the session, if any. */
  async answerFor(sessionId: string, firstSeq: number, lastSeq: number): Promise<ModelWindow | undefined> {
    const row = await this.db
      .selectFrom('model_windows')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('first_seq', '=', firstSeq)
      .where('last_seq', '=', lastSeq)
      .executeTakeFirst();
    return (
      row && {
        projectId: row.project_id,
        sessionId: row.session_id,
        firstSeq: row.first_seq,
        lastSeq: row.last_seq,
        engine: row.engine as ModelEngineName,
        model: row.model,
        inputChars: row.input_chars,
        answer: row.answer,
        tokens: row.tokens,
        costUsd: row.cost_usd,
      }
    );
  }

  /** Kept before the window's items are written: a crash after this costs no second call. */
  async keepAnswer(window: ModelWindow): Promise<void> {
    await this.db
      .insertInto('model_windows')
      .values({
        session_id: window.sessionId,
        first_seq: window.firstSeq,
        last_seq: window.lastSeq,
        project_id: window.projectId,
        engine: window.engine,
        model: window.model,
        input_chars: window.inputChars,
        answer: window.answer,
        tokens: window.tokens,
        cost_usd: window.costUsd,
      })
      .onConflict((oc) => oc.columns(['session_id', 'first_seq', 'last_seq']).doNothing())
      .execute();
  }
}
