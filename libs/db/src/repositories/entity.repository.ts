import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';
import type {
  EntityName,
  EntityWindow,
  TaskEventRow,
  EntityRow,
  RelationHit,
  PatternAggregate,
  SignatureHit,
} from './entity-rows';
import {
  EDGES_PER_ENTITY,
  FRONTIER_CAP,
  ITEMS_PER_ENTITY,
  entityColumns,
  entityKey as key,
  liveStatus,
  upsertEntities,
} from './entity-sql';

/**
 * The entity store's reads and writes; what to extract, how to score and what to show are
 * decided in libs/entities and libs/search. Every write is idempotent per (session, event), so
 * a window read again changes nothing.
 */
@Injectable()
export class EntityRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  async recordWindow(projectId: string, sessionId: string, window: EntityWindow): Promise<void> {
    if (window.mentions.length + window.relations.length + window.errors.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const names = [...window.mentions, ...window.relations.flatMap((r) => [r.source, r.target])];
      const ids = await upsertEntities(trx, projectId, names, window.at);

      if (window.mentions.length > 0) {
        const unique = [...new Map(window.mentions.map((m) => [`${key(m)}|${m.eventId}`, m])).values()];
        await sql`
          with added as (
            insert into entity_mentions (entity_id, project_id, session_id, event_id, occurred_at, edited)
            select m.entity_id, ${projectId}, ${sessionId}, m.event_id, m.occurred_at, m.edited
              from unnest(${unique.map((m) => ids.get(key(m))!)}::bigint[], ${unique.map((m) => m.eventId)}::text[],
                          ${unique.map((m) => m.occurredAt.toISOString())}::timestamptz[], ${unique.map((m) => m.edited)}::boolean[])
                   as m(entity_id, event_id, occurred_at, edited)
            on conflict do nothing
            returning entity_id, occurred_at)
          update entities e set mentions = e.mentions + a.n, last_seen_at = greatest(e.last_seen_at, a.last)
            from (select entity_id, count(*)::int as n, max(occurred_at) as last from added group by entity_id) a
           where e.id = a.entity_id`.execute(trx);
      }

      if (window.relations.length > 0) {
        const rels = [
          ...new Map(window.relations.map((r) => [`${r.kind}|${key(r.source)}|${key(r.target)}`, r] as const)).values(),
        ].sort(
          (a, b) =>
            ids.get(key(a.source))! - ids.get(key(b.source))! || ids.get(key(a.target))! - ids.get(key(b.target))!,
        );
        // Each session adds one to a relation's weight, however many of its windows see it.
        await sql`
          with added as (
            insert into relation_sessions (source_id, target_id, kind, session_id)
            select r.source_id, r.target_id, r.kind, ${sessionId}
              from unnest(${rels.map((r) => ids.get(key(r.source))!)}::bigint[], ${rels.map((r) => ids.get(key(r.target))!)}::bigint[],
                          ${rels.map((r) => r.kind)}::text[]) as r(source_id, target_id, kind)
            on conflict do nothing
            returning source_id, target_id, kind)
          insert into entity_relations (project_id, source_id, target_id, kind, weight, last_seen_at)
          select ${projectId}, source_id, target_id, kind, 1, ${window.at.toISOString()}::timestamptz from added
          on conflict (source_id, target_id, kind) do update
             set weight = entity_relations.weight + 1,
                 last_seen_at = greatest(entity_relations.last_seen_at, excluded.last_seen_at)`.execute(trx);
      }

      if (window.errors.length > 0) {
        const errors = [...new Map(window.errors.map((e) => [e.eventId, e])).values()];
        // A fix found later (in a window that saw the failure again as context) fills it in.
        await sql`
          insert into error_occurrences (project_id, session_id, event_id, signature, occurred_at, command, fix, fix_event_ids)
          select ${projectId}, ${sessionId}, e.event_id, e.signature, e.occurred_at, e.command, e.fix,
                 coalesce((select array_agg(x) from jsonb_array_elements_text(e.fix_ids) x), '{}')
            from unnest(${errors.map((e) => e.eventId)}::text[], ${errors.map((e) => e.signature)}::text[],
                        ${errors.map((e) => e.occurredAt.toISOString())}::timestamptz[], ${errors.map((e) => e.command)}::text[],
                        ${errors.map((e) => e.fix)}::text[], ${errors.map((e) => JSON.stringify(e.fixEventIds))}::jsonb[])
                 as e(event_id, signature, occurred_at, command, fix, fix_ids)
          on conflict (project_id, session_id, event_id) do update
             set fix = coalesce(excluded.fix, error_occurrences.fix),
                 fix_event_ids = case when excluded.fix is null then error_occurrences.fix_event_ids else excluded.fix_event_ids end`.execute(
          trx,
        );
      }
    });
  }

  /**
   * The events a session's task stack is read from (libs/entities taskStack), oldest first:
   * its first prompt, and the latest calls of the task tools with their results. The session
   * is named by the client's id for it; undefined when the project has no such session.
   */
  async taskEvents(
    projectId: string,
    externalSessionId: string,
    tools: readonly string[],
    limit: number,
  ): Promise<{ sessionId: string; events: TaskEventRow[] } | undefined> {
    const session = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('project_id', '=', projectId)
      .where('external_id', '=', externalSessionId)
      .executeTakeFirst();
    if (!session) return undefined;
    const { rows } = await sql<TaskEventRow & { seq: number }>`
      (select event_id as "eventId", type, occurred_at as "occurredAt", content, metadata, seq
         from raw_events where session_id = ${session.id} and type = 'prompt'
        order by seq limit 1)
      union all
      (select * from (
         select event_id, type, occurred_at, content, metadata, seq
           from raw_events
          where session_id = ${session.id} and metadata->>'tool' is not null
            and metadata->>'tool' = any(${[...tools]}::text[])
          order by seq desc limit ${limit}) latest)
      order by seq`.execute(this.db);
    return {
      sessionId: session.id,
      events: rows.map(({ eventId, type, occurredAt, content, metadata }) => ({
        eventId,
        type,
        occurredAt,
        content,
        metadata,
      })),
    };
  }

  /** Files the session has edited, as recorded so far, in the order they were first edited. */
  async sessionEditedFiles(projectId: string, sessionId: string): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`
      select e.name from entity_mentions m join entities e on e.id = m.entity_id
       where m.project_id = ${projectId} and m.session_id = ${sessionId} and m.edited and e.kind = 'file'
       group by e.name
       order by min(m.occurred_at), e.name`.execute(this.db);
    return rows.map((r) => r.name);
  }

  /** The text of a session's items, whatever their status: what their entity links derive from. */
  async sessionItems(
    projectId: string,
    sessionId: string,
  ): Promise<Array<{ itemId: string; title: string; facts: string; rationale: string | null; files: string[] }>> {
    const rows = await this.db
      .selectFrom('memory_items')
      .select(['id as itemId', 'title', 'facts', 'rationale', 'files'])
      .where('project_id', '=', projectId)
      .where('session_id', '=', sessionId)
      .execute();
    return rows;
  }

  /** These items' text, to find what they name (items written or edited outside enrichment). */
  async itemsById(
    projectId: string,
    itemIds: readonly string[],
  ): Promise<Array<{ itemId: string; title: string; facts: string; rationale: string | null; files: string[] }>> {
    if (itemIds.length === 0) return [];
    return this.db
      .selectFrom('memory_items')
      .select(['id as itemId', 'title', 'facts', 'rationale', 'files'])
      .where('project_id', '=', projectId)
      .where('id', 'in', [...itemIds])
      .execute();
  }

  /** The entities each item names, in place of what was recorded for it before. */
  async linkItems(
    projectId: string,
    links: Array<{ itemId: string; entities: EntityName[] }>,
    at: Date,
  ): Promise<void> {
    if (links.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const ids = await upsertEntities(
        trx,
        projectId,
        links.flatMap((l) => l.entities),
        at,
      );
      const itemIds = links.map((l) => l.itemId);
      await sql`delete from item_entities where project_id = ${projectId} and item_id = any(${itemIds}::text[])`.execute(
        trx,
      );
      const pairs = [
        ...new Set(links.flatMap((l) => l.entities.map((e) => `${l.itemId}\u0000${ids.get(key(e))!}`))),
      ].map((p) => p.split('\u0000'));
      if (pairs.length === 0) return;
      await sql`
        insert into item_entities (project_id, item_id, entity_id)
        select ${projectId}, p.item_id, p.entity_id
          from unnest(${pairs.map((p) => p[0]!)}::text[], ${pairs.map((p) => Number(p[1]))}::bigint[]) as p(item_id, entity_id)
          join memory_items m on m.id = p.item_id and m.project_id = ${projectId}
        on conflict do nothing`.execute(trx);
    });
  }

  /**
   * Entities whose lookup name (libs/entities lookupName) is one of `bases`, most mentioned
   * first, with their live items counted up to `counted` (libs/entities ITEM_MENTIONS_COUNTED).
   */
  async findByNames(
    projectId: string,
    bases: string[],
    statuses: readonly string[],
    limit: number,
    counted: number,
  ): Promise<EntityRow[]> {
    if (bases.length === 0) return [];
    const { rows } = await sql<EntityRow>`
      select ${entityColumns(statuses, counted)}
        from entities e
       where e.project_id = ${projectId} and e.base = any(${bases}::text[])
       order by e.mentions desc, e.id
       limit ${limit}`.execute(this.db);
    return rows;
  }

  /** The most mentioned entities, latest first among equals (live items counted as findByNames); scored by salience in the lib. */
  async salient(
    projectId: string,
    statuses: readonly string[],
    limit: number,
    counted: number,
    kinds?: readonly string[],
  ): Promise<EntityRow[]> {
    const { rows } = await sql<EntityRow>`
      select ${entityColumns(statuses, counted)}
        from entities e
       where e.project_id = ${projectId}
         ${kinds ? sql`and e.kind = any(${[...kinds]}::text[])` : sql``}
       order by e.mentions desc, e.last_seen_at desc
       limit ${limit}`.execute(this.db);
    return rows;
  }

  /**
   * Relations reached from the seeds within `depth` hops, each at the depth it was first
   * reached. Walked breadth-first, one query per hop: each entity is entered once, by its
   * strongest few edges, and a hop's frontier is capped, so a deep walk costs at most
   * `depth` small queries however connected the project is.
   */
  async traverse(projectId: string, seedIds: number[], depth: number, limit: number): Promise<RelationHit[]> {
    if (seedIds.length === 0 || depth < 1) return [];
    const seeds = await this.db
      .selectFrom('entities')
      .select('id')
      .where('project_id', '=', projectId)
      .where('id', 'in', seedIds)
      .execute();
    const reached = new Map<number, number>(seeds.map((s) => [Number(s.id), 0]));
    let frontier = [...reached.keys()];
    for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
      const { rows: next } = await sql<{ other: string | number }>`
        select distinct r.other
          from unnest(${frontier}::bigint[]) as f(id)
          cross join lateral (
            select other from (
              select target_id as other, weight from entity_relations where source_id = f.id and project_id = ${projectId}
              union all
              select source_id, weight from entity_relations where target_id = f.id and project_id = ${projectId}
            ) both_ways order by weight desc limit ${EDGES_PER_ENTITY}
          ) r`.execute(this.db);
      frontier = next
        .map((r) => Number(r.other))
        .filter((id) => !reached.has(id))
        .slice(0, FRONTIER_CAP);
      for (const id of frontier) reached.set(id, hop);
    }
    const { rows } = await sql<{
      kind: string;
      weight: number;
      depth: number;
      lastSeenAt: Date;
      sid: number;
      skind: string;
      sname: string;
      tid: number;
      tkind: string;
      tname: string;
    }>`
      with reached(entity_id, depth) as (
        select * from unnest(${[...reached.keys()]}::bigint[], ${[...reached.values()]}::int[])
      ),
      edges as (
        select r.source_id, r.target_id, r.kind, r.weight, r.last_seen_at, greatest(a.depth, b.depth) as depth
          from entity_relations r
          join reached a on a.entity_id = r.source_id
          join reached b on b.entity_id = r.target_id
         where r.project_id = ${projectId} and least(a.depth, b.depth) < ${depth})
      select x.kind, x.weight, x.depth, x.last_seen_at as "lastSeenAt", s.id as sid, s.kind as skind, s.name as sname, t.id as tid, t.kind as tkind, t.name as tname
        from edges x join entities s on s.id = x.source_id join entities t on t.id = x.target_id
       order by x.depth, x.weight desc, s.id, t.id
       limit ${limit}`.execute(this.db);
    return rows.map((r) => ({
      kind: r.kind,
      weight: r.weight,
      depth: r.depth,
      lastSeenAt: r.lastSeenAt,
      source: { id: r.sid, kind: r.skind, name: r.sname },
      target: { id: r.tid, kind: r.tkind, name: r.tname },
    }));
  }

  /**
   * Items of the given statuses naming any of the entities, with how many of them each names;
   * of each entity, the live ones among its newest ITEMS_PER_ENTITY links (read and checked
   * as entityColumns does): a hub named by thousands of items costs no more than any other
   * entity, and items are only ever read by key, whatever the statistics.
   */
  async itemsNaming(
    projectId: string,
    entityIds: number[],
    statuses: readonly string[],
    limit: number,
  ): Promise<Array<{ itemId: string; entityIds: number[] }>> {
    if (entityIds.length === 0) return [];
    const { rows } = await sql<{ itemId: string; entityIds: number[] }>`
      select item_id as "itemId", array_agg(entity_id order by entity_id) as "entityIds"
        from (
          select l.item_id, l.entity_id, ${liveStatus(sql`l.item_id`, projectId)} as status,
                 (select m.updated_at from memory_items m where m.id = l.item_id) as updated_at
            from unnest(${entityIds}::bigint[]) as x(id)
            cross join lateral (
              select ie.item_id, ie.entity_id from item_entities ie
               where ie.entity_id = x.id
               order by ie.item_id desc
               limit ${ITEMS_PER_ENTITY}) l
        ) linked
       where status = any(${[...statuses]}::text[])
       group by item_id
       order by count(*) desc, max(updated_at) desc
       limit ${limit}`.execute(this.db);
    return rows.map((r) => ({ itemId: r.itemId, entityIds: r.entityIds.map(Number) }));
  }

  /**
   * The project's error signatures holding each word (`memex_error_words`: the words and code
   * name parts of a signature), at most `perWord` a word, in no particular order: found on
   * the error entities by full-text index, one row per signature, however often it recurred.
   * Which of them make patterns is libs/search's choice (choosePatternSignatures).
   */
  async signaturesHolding(projectId: string, words: string[], perWord: number): Promise<SignatureHit[]> {
    if (words.length === 0) return [];
    // The signatures holding the word are found by the full-text index alone (the fence,
    // `offset 0`, keeps the project's btree out of reach: on a table without statistics the
    // planner would rather walk every error of the project computing its words), then the
    // project's first `perWord` of them are kept.
    const { rows } = await sql<SignatureHit>`
      select w.word, s.name as signature, s.mentions, s.last_seen_at as "lastSeenAt"
        from unnest(${words}::text[]) as w(word)
        cross join lateral (select plainto_tsquery('english', w.word) as q) x
        cross join lateral (
          select * from (
            select e.project_id, e.name, e.mentions, e.last_seen_at from entities e
             where numnode(x.q) > 0 and e.kind = 'error' and memex_error_words(e.name) @@ x.q
            offset 0) found
           where found.project_id = ${projectId}
           limit ${perWord}) s`.execute(this.db);
    return rows;
  }

  /** How often each of these error signatures occurred, in how many sessions, and the fixes that followed; most seen first. */
  async patterns(projectId: string, signatures: string[]): Promise<PatternAggregate[]> {
    if (signatures.length === 0) return [];
    const { rows } = await sql<{ signature: string; occurrences: number; sessions: number; lastSeenAt: Date }>`
      select signature, count(*)::int as occurrences, count(distinct session_id)::int as sessions, max(occurred_at) as "lastSeenAt"
        from error_occurrences
       where project_id = ${projectId} and signature = any(${signatures}::text[])
       group by signature
       order by count(*) desc, max(occurred_at) desc`.execute(this.db);
    if (rows.length === 0) return [];
    const { rows: fixes } = await sql<{ signature: string; fix: string; count: number; eventIds: string[] }>`
      select signature, fix, count(*)::int as count, (array_agg(array_to_json(fix_event_ids) order by occurred_at desc))[1] as "eventIds"
        from error_occurrences
       where project_id = ${projectId} and signature = any(${rows.map((r) => r.signature)}::text[]) and fix is not null
       group by signature, fix
       order by count(*) desc, fix`.execute(this.db);
    return rows.map((r) => ({
      ...r,
      fixes: fixes
        .filter((f) => f.signature === r.signature)
        .map((f) => ({ summary: f.fix, count: f.count, eventIds: f.eventIds })),
    }));
  }
}
