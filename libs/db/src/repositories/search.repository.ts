import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { HIGHLIGHT, type ItemStatus, type ItemType } from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

export interface SearchFilter {
  statuses: readonly ItemStatus[];
  types?: readonly ItemType[];
  /** Web-search words and phrases as alternatives: an item matching any is left out. */
  excluded?: string;
}

export interface SearchHit {
  itemId: string;
  type: ItemType;
  status: ItemStatus;
  title: string;
  facts: string;
  rationale: string | null;
  files: string[];
  tags: string[];
  confidence: number;
  importance: number | null;
  schemaKey: string;
  updatedAt: Date;
  snippet: string;
}

/** How much of the facts a snippet is cut from: highlighting cost grows with the text. */
const HEADLINE_CHARS = 2000;

/** Full-text search over items (websearch_to_tsquery on the weighted tsvector) and the rows search answers with. */
@Injectable()
export class SearchRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /** Item ids best first by ts_rank_cd, for a web-search-syntax query. */
  async fullText(projectId: string, query: string, filter: SearchFilter, limit: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      select m.id
        from memory_items m, websearch_to_tsquery('english', ${query}) q
       where m.project_id = ${projectId}
         and m.search_tsv @@ q
         and m.status = any(${[...filter.statuses]}::text[])
         ${filter.types ? sql`and m.type = any(${[...filter.types]}::text[])` : sql``}
       order by ts_rank_cd(m.search_tsv, q, 1) desc, m.id
       limit ${limit}`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /**
   * The rows of `ids` (in that order) that still pass the filter (the vector store lags the
   * items), each with a snippet of its facts around the query's words.
   */
  async hydrate(projectId: string, ids: string[], query: string, filter: SearchFilter): Promise<SearchHit[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<SearchHit>`
      select m.id as "itemId", m.type, m.status, m.title, m.facts, m.rationale, m.files, m.tags, m.confidence,
             m.importance, m.schema_key as "schemaKey", m.updated_at as "updatedAt",
             ts_headline('english', left(m.facts, ${HEADLINE_CHARS}), websearch_to_tsquery('english', ${query}),
               ${`StartSel=${HIGHLIGHT.start}, StopSel=${HIGHLIGHT.stop}, MaxWords=35, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`}) as snippet
        from memory_items m
       where m.project_id = ${projectId} and m.id = any(${ids}::text[])
         and m.status = any(${[...filter.statuses]}::text[])
         ${filter.types ? sql`and m.type = any(${[...filter.types]}::text[])` : sql``}
         ${filter.excluded ? sql`and not (m.search_tsv @@ websearch_to_tsquery('english', ${filter.excluded}))` : sql``}`.execute(
      this.db,
    );
    const byId = new Map(rows.map((r) => [r.itemId, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * The newest events of a session (by default the project's most recently active one),
   * newest first: what the assistant was just doing. (By session, so the read uses the
   * session's own index.) `since` and `types` narrow them, as a context pack's filters ask.
   */
  async recentEvents(
    projectId: string,
    limit: number,
    scope: { sessionId?: string; since?: Date; types?: readonly string[] } = {},
  ): Promise<Array<{ eventId: string; type: string; occurredAt: Date; content: string }>> {
    let query = this.db.selectFrom('sessions').select('id').where('project_id', '=', projectId);
    if (scope.sessionId) query = query.where('id', '=', scope.sessionId);
    const session = await query.orderBy('last_event_at', 'desc').limit(1).executeTakeFirst();
    if (!session) return [];
    let events = this.db
      .selectFrom('raw_events')
      .select(['event_id', 'type', 'occurred_at', sql<string>`left(content, 1000)`.as('content')])
      .where('session_id', '=', session.id);
    if (scope.since) events = events.where('occurred_at', '>=', scope.since);
    if (scope.types) events = events.where('type', '=', sql<string>`any(${[...scope.types]}::text[])`);
    const rows = await events.orderBy('seq', 'desc').limit(limit).execute();
    return rows.map((r) => ({ eventId: r.event_id, type: r.type, occurredAt: r.occurred_at, content: r.content }));
  }
}
