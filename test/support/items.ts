import { sql, type Kysely } from 'kysely';
import type { DB } from '@memex/db';
import { newId, type ItemStatus } from '@memex/domain';

export const DAY = 86_400_000;

export interface SeedItem {
  type?: string;
  title?: string;
  facts?: string;
  rationale?: string | null;
  status?: ItemStatus;
  confidence?: number;
  dedupHint?: string | null;
  supersededBy?: string | null;
  evidence?: number;
  /** Ages in days before now. */
  createdDaysAgo?: number;
  updatedDaysAgo?: number;
  reinforcedDaysAgo?: number | null;
  statusChangedDaysAgo?: number;
  resolved?: boolean;
}

/**
 * Writes an item straight into the table, with the ages a test needs (the API only ever
 * makes items "now"). The status-date trigger fires on updates only, so inserts keep it.
 */
export async function insertItem(db: Kysely<DB>, projectId: string, item: SeedItem = {}): Promise<string> {
  const now = Date.now();
  const ago = (days: number | undefined, fallback: number) => new Date(now - (days ?? fallback) * DAY);
  const id = newId();
  const updated = ago(item.updatedDaysAgo, 1);
  await db
    .insertInto('memory_items')
    .values({
      id,
      project_id: projectId,
      type: item.type ?? 'ImplementationFact',
      title: item.title ?? `Item ${id}`,
      facts: item.facts ?? `Facts of ${id}: something distinct ${Math.random()}`,
      rationale: item.rationale === undefined ? 'Because.' : item.rationale,
      schema_key: 'root',
      confidence: item.confidence ?? 0.8,
      status: item.status ?? 'active',
      evidence_spans: JSON.stringify(
        Array.from({ length: item.evidence ?? 1 }, (_, i) => ({ eventId: `e-${id}-${i}`, quote: 'quoted' })),
      ),
      evidence_refs: Array.from({ length: item.evidence ?? 1 }, (_, i) => `e-${id}-${i}`),
      dedup_hint: item.dedupHint ?? null,
      superseded_by: item.supersededBy ?? null,
      session_id: 'seed',
      importance: 3,
      created_at: ago(item.createdDaysAgo, item.updatedDaysAgo ?? 1),
      updated_at: updated,
      last_reinforced_at:
        item.reinforcedDaysAgo === undefined || item.reinforcedDaysAgo === null ? null : ago(item.reinforcedDaysAgo, 0),
      resolved_at: item.resolved ? updated : null,
      status_changed_at: ago(item.statusChangedDaysAgo, item.updatedDaysAgo ?? 1),
    })
    .execute();
  return id;
}

export async function itemStatus(db: Kysely<DB>, id: string): Promise<string> {
  const row = await db.selectFrom('memory_items').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

export async function revisionOf(db: Kysely<DB>, projectId: string): Promise<number> {
  const { rows } = await sql<{
    r: number;
  }>`select memory_revision::int as r from projects where id = ${projectId}`.execute(db);
  return rows[0]!.r;
}
