import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../schema';
import type { EntityName } from './entity-rows';

/** The SQL pieces the entity store's queries share: its caps, its columns, its upsert. */

export const entityKey = (e: { kind: string; name: string }) => `${e.kind}:${e.name}`;
const key = entityKey;

/** Edges followed out of each entity in a traversal, strongest first: a hub cannot flood it. */
export const EDGES_PER_ENTITY = 12;
/** Entities a hop of a traversal goes on from, at most. */
export const FRONTIER_CAP = 200;
/** An entity's newest live items a pack weighs as naming it: past these, a hub says little of which item is meant. */
export const ITEMS_PER_ENTITY = 100;

/**
 * An entity's columns, with its live items counted among its newest `counted` links. The links
 * are read off the entity's own (entity_id, item_id) index and cut to the newest (item ids are
 * ULIDs) before any item is read; each is then looked up by key in a scalar subquery, which
 * PostgreSQL never turns into a join. So whatever the statistics (none, on a table nobody has
 * analysed yet), the plan cannot scan the project's items, let alone every project's, and a hub
 * named by thousands of items costs what a small entity does.
 */
export function entityColumns(statuses: readonly string[], counted: number) {
  return sql`e.id, e.kind, e.name, e.mentions, e.last_seen_at as "lastSeenAt",
    (select count(*)::int from (
       select ie.item_id from item_entities ie where ie.entity_id = e.id order by ie.item_id desc limit ${counted}
     ) newest
     where ${liveStatus(sql`newest.item_id`, sql`e.project_id`)} = any(${[...statuses]}::text[])) as "itemMentions"`;
}

/**
 * An item's status if it is the project's (else null), looked up by key: a scalar subquery,
 * so the planner cannot make it a join that scans the items (see entityColumns).
 */
export function liveStatus(itemId: RawBuilder<unknown>, projectId: RawBuilder<unknown> | string) {
  return sql`(select m.status from memory_items m where m.id = ${itemId} and m.project_id = ${projectId})`;
}

/** Entities inserted or touched, in one order (kind, name) so concurrent windows lock alike. */
export async function upsertEntities(
  trx: Transaction<DB>,
  projectId: string,
  names: EntityName[],
  at: Date,
): Promise<Map<string, number>> {
  const unique = [...new Map(names.map((n) => [key(n), n])).values()].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  if (unique.length === 0) return new Map();
  const { rows } = await sql<{ id: number; kind: string; name: string }>`
    insert into entities (project_id, kind, name, base, first_seen_at, last_seen_at)
    select ${projectId}, n.kind, n.name, n.base, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
      from unnest(${unique.map((n) => n.kind)}::text[], ${unique.map((n) => n.name)}::text[], ${unique.map((n) => n.base)}::text[])
           with ordinality as n(kind, name, base, i)
     order by n.i
    on conflict (project_id, kind, name) do update set base = excluded.base
    returning id, kind, name`.execute(trx);
  return new Map(rows.map((r) => [key(r), Number(r.id)]));
}
