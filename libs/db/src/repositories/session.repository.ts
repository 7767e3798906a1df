import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Session } from '@memex/domain';
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

  async markCompleted(sessionId: string, at: Date): Promise<Session> {
    const row = await this.db
      .updateTable('sessions')
      .set({ completed_at: sql<Date>`coalesce(completed_at, ${at})` })
      .where('id', '=', sessionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSession(row);
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
