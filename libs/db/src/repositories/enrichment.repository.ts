import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { EventType } from '@memex/domain';
import type { EngineEvent } from '@memex/enrichment';
import type { DB, RawEventsTable } from '../schema';
import { KYSELY } from '../tokens';

const ENGINE_EVENT_COLUMNS = ['seq', 'event_id', 'type', 'occurred_at', 'content', 'metadata'] as const;

function toEngineEvent(r: Pick<Selectable<RawEventsTable>, (typeof ENGINE_EVENT_COLUMNS)[number]>): EngineEvent {
  return {
    seq: r.seq,
    eventId: r.event_id,
    type: r.type as EventType,
    timestamp: r.occurred_at,
    content: r.content,
    metadata: r.metadata,
  };
}

/** What the enrichment worker reads: a session's events past its cursor, and the LLM token ledger. */
@Injectable()
export class EnrichmentRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async session(projectId: string, sessionId: string): Promise<{ cursor: number; lastEventSeq: number } | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['enrichment_cursor', 'last_event_seq'])
      .where('id', '=', sessionId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row && { cursor: row.enrichment_cursor, lastEventSeq: row.last_event_seq };
  }

  async eventsAfter(sessionId: string, cursor: number, limit: number): Promise<EngineEvent[]> {
    const rows = await this.db
      .selectFrom('raw_events')
      .select(ENGINE_EVENT_COLUMNS)
      .where('session_id', '=', sessionId)
      .where('seq', '>', cursor)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(toEngineEvent);
  }

  /** The `limit` events at or before the cursor, oldest first: the turn a window continues. */
  async eventsUpTo(sessionId: string, cursor: number, limit: number): Promise<EngineEvent[]> {
    if (cursor <= 0 || limit <= 0) return [];
    const rows = await this.db
      .selectFrom('raw_events')
      .select(ENGINE_EVENT_COLUMNS)
      .where('session_id', '=', sessionId)
      .where('seq', '<=', cursor)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map(toEngineEvent);
  }

  async tokensUsed(projectId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('llm_usage')
      .select('tokens')
      .where('project_id', '=', projectId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row?.tokens ?? 0;
  }

  /** Tokens are recorded as soon as they are spent, whether or not the window's write succeeds. */
  async addTokens(projectId: string, day: string, tokens: number, calls: number): Promise<void> {
    await this.db
      .insertInto('llm_usage')
      .values({ project_id: projectId, day, tokens, calls })
      .onConflict((oc) =>
        oc.columns(['project_id', 'day']).doUpdateSet({
          tokens: sql<number>`llm_usage.tokens + excluded.tokens`,
          calls: sql<number>`llm_usage.calls + excluded.calls`,
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }
}
