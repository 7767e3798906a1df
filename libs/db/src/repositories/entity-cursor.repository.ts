import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

/** A session whose enriched events have not all reached the entity store. */
export interface EntitiesBehind {
  projectId: string;
  sessionId: string;
  /** The session's enrichment cursor: what the entity store should have read up to. */
  cursor: number;
  lastEventAt: Date;
}

/** How far each session's events have reached the entity store. */
@Injectable()
export class EntityCursorRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** The store has read the session's events up to `seq`; a cursor never moves back. */
  async markRead(projectId: string, sessionId: string, seq: number): Promise<void> {
    await this.db
      .insertInto('entity_cursors')
      .values({ session_id: sessionId, project_id: projectId, seq })
      .onConflict((oc) => oc.column('session_id').doUpdateSet({ seq: sql`greatest(entity_cursors.seq, excluded.seq)` }))
      .execute();
  }

  /**
   * Sessions enriched further than the entity store has read, that no run is working on (a
   * run fills the store itself after each window): a failed update waiting to be done again.
   */
  async behind(limit: number): Promise<EntitiesBehind[]> {
    const rows = await this.db
      .selectFrom('sessions as s')
      .leftJoin('entity_cursors as c', 'c.session_id', 's.id')
      .select(['s.project_id', 's.id', 's.enrichment_cursor', 's.last_event_at'])
      .where('s.enrichment_cursor', '>', sql<number>`coalesce(c.seq, 0)`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('enrichment_leases as l')
              .select('l.session_id')
              .whereRef('l.session_id', '=', 's.id')
              .where('l.expires_at', '>', sql<Date>`now()`),
          ),
        ),
      )
      .orderBy('s.last_event_at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      projectId: r.project_id,
      sessionId: r.id,
      cursor: r.enrichment_cursor,
      lastEventAt: r.last_event_at,
    }));
  }
}
