import { sql, type Kysely } from 'kysely';

/**
 * Items written before reinforcement stopped growing them. Each reinforcement had added its
 * events to `evidence_refs` and a made-up id to `merged_from`, with no limit, so an item said in
 * every session carried hundreds of each, read, written back and copied into history at every
 * saying. Now, as `evidenceRefsOf` keeps them, an item's refs are the events its kept spans quote
 * (first seen first), and `merged_from` keeps only ids of items that exist: the items a hygiene
 * merge folded in. An item with no spans keeps its refs. Not an edit of what an item says, so
 * `updated_at`, history and the revision stay as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    with fixed as (
      select m.id,
             case when jsonb_array_length(m.evidence_spans) = 0 then m.evidence_refs
                  else coalesce((select array_agg(r.event_id order by r.first)
                                   from (select s ->> 'eventId' as event_id, min(o) as first
                                           from jsonb_array_elements(m.evidence_spans) with ordinality as t(s, o)
                                          group by 1) r), '{}') end as refs,
             coalesce((select array_agg(u.id order by u.o)
                         from unnest(m.merged_from) with ordinality as u(id, o)
                        where exists (select 1 from memory_items k where k.id = u.id)), '{}') as merged
        from memory_items m
    )
    update memory_items m set evidence_refs = f.refs, merged_from = f.merged
      from fixed f
     where m.id = f.id and (m.evidence_refs <> f.refs or m.merged_from <> f.merged)`.execute(db);
}
