import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import {
  CONTRACTION_STEMS,
  HIGHLIGHT,
  type ItemStatus,
  type ItemType,
  type MemoryItem,
  type SearchItem,
} from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';
import { TermCounts } from './term-counts';

export interface SearchFilter {
  statuses: readonly ItemStatus[];
  types?: readonly ItemType[];
  /** Web-search words and phrases as alternatives: an item matching any is left out. */
  excluded?: string;
}

/** An item search found: what a hit lists and a pack weighs of it, with a snippet of its facts. */
export type SearchHit = SearchItem &
  Pick<MemoryItem, 'facts' | 'rationale' | 'sessionId'> & {
    snippet: string;
  };

/** What full-text search is asked: the words sought (code names are split in SQL) and quoted phrases. */
export interface FullTextQuery {
  words: string;
  phrases: readonly string[];
}

export interface FullTextHit {
  id: string;
  /** The share of the query's weight (its terms by rarity) the item matches, 0–1. */
  coverage: number;
}

/** Terms a query is read as, at most. */
const MAX_TERMS = 24;
/** A term's document frequency is counted up to this: past it a term is common whatever the count. */
const DF_CAP = 200;
/** Items a query scores at most from each source of candidates. */
const MAX_CANDIDATES = 2000;
/** Items matching only common terms that a query scores: beyond the ones matching all of them, a sample. */
const COMMON_CANDIDATES = 300;

/** The contraction stems as a one-term tsquery prints itself ('won'). */
const CONTRACTION_TERMS = CONTRACTION_STEMS.map((s) => `'${s}'`);

/** How much of the facts a snippet is cut from: highlighting cost grows with the text. */
const HEADLINE_CHARS = 2000;

/** Full-text search over items (any of the query's terms, weighted by rarity) and the rows search answers with. */
@Injectable()
export class SearchRepository {
  private readonly termCounts = new TermCounts();

  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /**
   * Items sharing any of the query's terms, best first: a question in plain words rarely holds
   * every word an item does, so no word is required. Each term weighs by its rarity among the
   * project's items (an idf from its document frequency, counted up to DF_CAP: past that a
   * term is common whatever its count), quoted phrases twice; an item's `coverage` is the share
   * of the query's weight it matches (0–1), and terms the project has never seen weigh in the
   * denominator too, so a query about something else scores low however common its other
   * words. Candidates are the items matching every term, those matching a selective term, and
   * (when every term is common) some matching the rarest, so a common word never makes the
   * query score thousands of rows; ties go to ts_rank_cd. Words
   * are the query's own and the parts of its code names (`memex_code_words`, as the index).
   * A term's count is read from `termCounts` when the project's items have not changed since
   * it was counted (the statement compares the revision), and counted otherwise.
   */
  async fullText(projectId: string, query: FullTextQuery, filter: SearchFilter, limit: number): Promise<FullTextHit[]> {
    const statuses = [...filter.statuses];
    const types = filter.types ? sql`and m.type = any(${[...filter.types]}::text[])` : sql``;
    const scope = JSON.stringify([projectId, statuses, filter.types ?? null]);
    const known = this.termCounts.known(scope, `${query.words} ${query.phrases.join(' ')}`);
    const { rows } = await sql<FullTextHit & { revision: number; terms: string[]; counts: number[] }>`
      with raw(t, boost, ord) as (
        select p, 2.0, ord - 1000 from unnest(${[...query.phrases]}::text[]) with ordinality as u(p, ord)
        union all
        select w, 1.0, ord from regexp_split_to_table(${query.words} || ' ' || memex_code_words(${query.words}), '[[:space:]]+')
          with ordinality as u(w, ord)
      ),
      distinct_terms as (
        select distinct on (q::text) q, boost, ord
          from raw, lateral (select case when boost > 1 then phraseto_tsquery('english', t) else plainto_tsquery('english', t) end as q) x
         where t <> '' and numnode(x.q) > 0 and x.q::text <> all(${CONTRACTION_TERMS}::text[])
         order by q::text, boost desc, ord
      ),
      -- A long prompt keeps its phrases and its first words, as written.
      terms as (select q, boost from distinct_terms order by ord limit ${MAX_TERMS}),
      revision as (select memory_revision as r from projects where id = ${projectId}),
      kept(term, df) as (
        select * from unnest(${known.terms}::text[], ${known.counts}::int[])
         where (select r from revision) = ${known.revision}::bigint
      ),
      weighted as (
        select t.q, d.df, t.boost * ln(1 + ${DF_CAP}::float8 / (d.df + 0.5)) as idf
          from terms t left join kept k on k.term = t.q::text, lateral (
            -- A count kept at this revision is read, not counted again (a CASE runs one branch).
            select case when k.df is not null then k.df::float8 else (
              select count(*)::float8 from (select 1 from memory_items m
                where m.project_id = ${projectId} and m.status = any(${statuses}::text[]) ${types}
                  and m.search_tsv @@ t.q limit ${DF_CAP}) c) end as df
          ) d
      ),
      total as (select sum(idf) as total from weighted),
      every as (
        select string_agg('(' || q::text || ')', ' & ')::tsquery as q from weighted where df > 0
      ),
      selective as (select q from weighted where df > 0 and df < ${DF_CAP}),
      candidates as (
        -- Items matching every known term: the best by coverage, and few.
        (select m.id, m.search_tsv from memory_items m, every e
          where e.q is not null and m.search_tsv @@ e.q
            and m.project_id = ${projectId} and m.status = any(${statuses}::text[]) ${types}
          limit ${MAX_CANDIDATES})
        union
        -- Items matching a selective term: a few hundred at most.
        (select m.id, m.search_tsv from selective s join memory_items m on m.search_tsv @@ s.q
          where m.project_id = ${projectId} and m.status = any(${statuses}::text[]) ${types}
          limit ${MAX_CANDIDATES})
        union
        -- With no selective term, some of the items matching the rarest one.
        (select m.id, m.search_tsv from memory_items m
          where not exists (select 1 from selective)
            and m.search_tsv @@ (select q from weighted where df > 0 order by df limit 1)
            and m.project_id = ${projectId} and m.status = any(${statuses}::text[]) ${types}
          limit ${COMMON_CANDIDATES})
      ),
      scored as (
        select c.id, sum(w.idf) as matched, sum(w.idf * ts_rank_cd(c.search_tsv, w.q, 1)) as rank
          from candidates c
          join weighted w on w.df > 0 and c.search_tsv @@ w.q
         group by c.id
      ),
      counted as (
        select (select r from revision)::float8 as revision,
               coalesce(array_agg(q::text), '{}') as terms, coalesce(array_agg(df::int), '{}') as counts
          from weighted
      )
      select s.id, (s.matched / total.total)::float8 as coverage, counted.revision, counted.terms, counted.counts
        from scored s, total, counted
       order by coverage desc, s.rank desc, s.id
       limit ${limit}`.execute(this.db);
    const first = rows[0];
    if (first) this.termCounts.learn(scope, first.revision, first.terms, first.counts);
    return rows.map(({ id, coverage }) => ({ id, coverage }));
  }

  /**
   * The rows of `ids` (in that order) that still pass the filter (the vector store lags the
   * items), each with a snippet of its facts around the query's words.
   */
  async hydrate(projectId: string, ids: string[], query: string, filter: SearchFilter): Promise<SearchHit[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql<SearchHit>`
      select m.id as "itemId", m.type, m.status, m.title, m.facts, m.rationale, m.files, m.tags, m.confidence,
             m.importance, m.schema_key as "schemaKey", m.updated_at as "updatedAt", m.session_id as "sessionId",
             ts_headline('english', left(m.facts, ${HEADLINE_CHARS}),
               replace(plainto_tsquery('english', ${query} || ' ' || memex_code_words(${query}))::text, '&', '|')::tsquery,
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
   * Live items of these sessions, or of these types, most salient first: what a context pack
   * considers beside search's hits (what else the session that holds an answer concluded; the
   * conventions a "how should I …" question asks for).
   */
  async around(
    projectId: string,
    scope: { sessionIds?: readonly string[]; types?: readonly ItemType[] },
    filter: SearchFilter,
    limit: number,
  ): Promise<string[]> {
    if (!scope.sessionIds?.length && !scope.types?.length) return [];
    const statuses = [...filter.statuses];
    const types = filter.types ? sql`and m.type = any(${[...filter.types]}::text[])` : sql``;
    // Each session and each type read on its own, top-k by index, however many items it holds.
    const { rows } = await sql<{ id: string }>`
      select id from (
        select x.id, x.salience from unnest(${[...(scope.sessionIds ?? [])]}::text[]) s(sid), lateral (
          select m.id, m.salience from memory_items m
           where m.project_id = ${projectId} and m.session_id = s.sid and m.status = any(${statuses}::text[]) ${types}
           order by m.salience desc nulls last limit ${limit}) x
        union
        select x.id, x.salience from unnest(${[...(scope.types ?? [])]}::text[]) t(type), lateral (
          select m.id, m.salience from memory_items m
           where m.project_id = ${projectId} and m.type = t.type and m.status = any(${statuses}::text[]) ${types}
           order by m.salience desc nulls last limit ${limit}) x
      ) found
      order by salience desc nulls last, id
      limit ${limit}`.execute(this.db);
    return rows.map((r) => r.id);
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
