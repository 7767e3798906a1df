import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { EventType } from '@memex/domain';
import type { EngineEvent } from '@memex/domain';
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

/** What the enrichment worker reads: a session's events past its cursor, and the turn before. */
export interface EnrichmentPosition {
  cursor: number;
  lastEventSeq: number;
  endedSeq: number | null;
  endReadSeq: number | null;
}

@Injectable()
export class EnrichmentRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** Where enrichment stands in a session: its cursor, newest event, and where it ended and whether that was read. */
  async session(projectId: string, sessionId: string): Promise<EnrichmentPosition | undefined> {
    return this.db
      .selectFrom('sessions')
      .select([
        'enrichment_cursor as cursor',
        'last_event_seq as lastEventSeq',
        'ended_seq as endedSeq',
        'end_read_seq as endReadSeq',
      ])
      .where('id', '=', sessionId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }

  /**
   * Takes or renews the session's lease for `owner` until `ttlMs` from now, if nobody else
   * holds one that is still running. The database's clock decides, so replicas agree.
   */
  async claimLease(sessionId: string, owner: string, ttlMs: number): Promise<boolean> {
    const until = sql<Date>`now() + ${ttlMs} * interval '1 millisecond'`;
    const row = await this.db
      .insertInto('enrichment_leases')
      .values({ session_id: sessionId, owner, expires_at: until })
      .onConflict((oc) =>
        oc
          .column('session_id')
          .doUpdateSet({ owner, expires_at: until })
          .where((eb) =>
            eb.or([
              eb('enrichment_leases.owner', '=', owner),
              eb('enrichment_leases.expires_at', '<', sql<Date>`now()`),
            ]),
          ),
      )
      .returning('session_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async releaseLease(sessionId: string, owner: string): Promise<void> {
    await this.db
      .deleteFrom('enrichment_leases')
      .where('session_id', '=', sessionId)
      .where('owner', '=', owner)
      .execute();
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
}
