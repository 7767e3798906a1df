import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

export interface ProjectState {
  sessions: { total: number; lagging: number; lastEventAt: Date | null };
  items: { live: number; review: number; archived: number };
  lastEnrichmentAt: Date | null;
}

/** Counts that say where a project's memory stands: sessions behind, items by state, the last enrichment. */
@Injectable()
export class ProjectStatusRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async state(projectId: string): Promise<ProjectState> {
    const [sessions, items, enriched] = await Promise.all([
      this.db
        .selectFrom('sessions')
        .select([
          sql<number>`count(*)::int`.as('total'),
          sql<number>`count(*) filter (where enrichment_cursor < last_event_seq)::int`.as('lagging'),
          sql<Date | null>`max(last_event_at)`.as('last_event_at'),
        ])
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('memory_items')
        .select([
          sql<number>`count(*) filter (where status in ('active', 'stale'))::int`.as('live'),
          sql<number>`count(*) filter (where status = 'review')::int`.as('review'),
          sql<number>`count(*) filter (where status in ('archived', 'superseded'))::int`.as('archived'),
        ])
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('item_history')
        .select(sql<Date | null>`max(created_at)`.as('at'))
        .where('project_id', '=', projectId)
        .where('actor', 'like', 'enrichment:%')
        .executeTakeFirstOrThrow(),
    ]);
    return {
      sessions: { total: sessions.total, lagging: sessions.lagging, lastEventAt: sessions.last_event_at },
      items: { live: items.live, review: items.review, archived: items.archived },
      lastEnrichmentAt: enriched.at,
    };
  }
}
