import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Session, SessionSummary, StoredEvent } from '@memex/domain';
import type { DB, SessionsTable } from '../schema';
import { KYSELY } from '../tokens';

export function toSession(row: Selectable<SessionsTable>): Session {
  return {
    id: row.id,
    projectId: row.project_id,
    externalId: row.external_id,
    branch: row.branch,
    createdAt: row.created_at,
    lastEventAt: row.last_event_at,
    lastEventSeq: row.last_event_seq,
    enrichmentCursor: row.enrichment_cursor,
    completedAt: row.completed_at,
  };
}

@Injectable()
export class SessionRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async findByExternalId(projectId: string, externalId: string): Promise<Session | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return row && toSession(row);
  }

  /** Completed: enrich what it has now. Ended (the session is over): its newest event is where it ended. */
  async markCompleted(sessionId: string, at: Date, ended = false): Promise<Session> {
    const row = await this.db
      .updateTable('sessions')
      .set({
        completed_at: sql<Date>`coalesce(completed_at, ${at})`,
        ...(ended ? { ended_seq: sql<number>`last_event_seq` } : {}),
      })
      .where('id', '=', sessionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSession(row);
  }

  /** The project's sessions, newest first, one page after `cursor`, with their event and item counts. */
  async listForProject(
    projectId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ sessions: SessionSummary[]; nextCursor: string | null }> {
    let query = this.db
      .selectFrom('sessions as s')
      .selectAll('s')
      .select([
        sql<number>`(select count(*) from raw_events e where e.session_id = s.id)::int`.as('event_count'),
        sql<number>`(select count(*) from memory_items m where m.project_id = s.project_id and m.session_id = s.id)::int`.as(
          'item_count',
        ),
      ])
      .where('s.project_id', '=', projectId);
    if (cursor) query = query.where('s.id', '<', cursor);
    const rows = await query
      .orderBy('s.id', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit).map((r): SessionSummary => ({
      id: r.id,
      externalId: r.external_id,
      branch: r.branch,
      createdAt: r.created_at,
      lastEventAt: r.last_event_at,
      completedAt: r.completed_at,
      status: r.completed_at ? 'completed' : 'open',
      enrichmentPending: r.last_event_seq > r.enrichment_cursor,
      eventCount: r.event_count,
      itemCount: r.item_count,
    }));
    return { sessions: page, nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
  }

  /** One of the project's events by its client id, with the session it belongs to. */
  async findEvent(projectId: string, eventId: string): Promise<StoredEvent | undefined> {
    const row = await this.db
      .selectFrom('raw_events as e')
      .innerJoin('sessions as s', 's.id', 'e.session_id')
      .select([
        'e.event_id',
        'e.type',
        'e.occurred_at',
        'e.received_at',
        'e.content',
        'e.metadata',
        's.id',
        's.external_id',
      ])
      .where('e.project_id', '=', projectId)
      .where('e.event_id', '=', eventId)
      .executeTakeFirst();
    return (
      row && {
        eventId: row.event_id,
        type: row.type,
        timestamp: row.occurred_at,
        receivedAt: row.received_at,
        content: row.content,
        metadata: row.metadata,
        session: { id: row.id, externalId: row.external_id },
      }
    );
  }

  /**
   * Sessions with events past their enrichment cursor whose newest event is older than
   * `quietSince`, oldest first, one page after `after` (keyset, so pages never overlap).
   */
  async findLagging(quietSince: Date, limit: number, after?: { lastEventAt: Date; id: string }): Promise<Session[]> {
    let query = this.db
      .selectFrom('sessions')
      .selectAll()
      .where(sql.ref('last_event_seq'), '>', sql.ref('enrichment_cursor'))
      .where('last_event_at', '<', quietSince);
    if (after) {
      query = query.where((eb) => eb(eb.refTuple('last_event_at', 'id'), '>', eb.tuple(after.lastEventAt, after.id)));
    }
    const rows = await query.orderBy('last_event_at').orderBy('id').limit(limit).execute();
    return rows.map(toSession);
  }
}
