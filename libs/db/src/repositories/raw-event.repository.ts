import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { newId, type EventBatch } from '@memex/domain';
import { retryOnConnectionLoss } from '../connection-loss';
import { PG_POOL } from '../tokens';

export interface StoredBatch {
  /** The session's id; known only when at least one event was stored. */
  sessionId: string | undefined;
  accepted: number;
  duplicates: number;
}

const DEADLOCK = '40P01';
const SERIALIZATION_FAILURE = '40001';
const MAX_ATTEMPTS = 5;

const STORE_BATCH_SQL = `
  with session as (
    insert into sessions (id, project_id, external_id, branch, last_event_at)
    values ($1, $2, $3, $4, $5)
    on conflict (project_id, external_id) do update
      set last_event_at = excluded.last_event_at,
          branch = coalesce(excluded.branch, sessions.branch)
    returning id
  )
  insert into raw_events (project_id, session_id, event_id, type, occurred_at, content, metadata)
  select $2, session.id, e.i, e.y, e.t, e.c, e.m
    from session,
         rows from (json_to_recordset($6::json) as (i text, y text, t timestamptz, c text, m jsonb))
           with ordinality as e(i, y, t, c, m, ord)
   order by e.ord
  on conflict (project_id, event_id) do nothing
  returning seq, session_id`;

@Injectable()
export class RawEventRepository {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * Stores a batch in one statement: the session (created on first sight), then every event
   * whose id the project has not stored before; a trigger moves the session's last_event_seq.
   *
   * The session upsert runs first and locks the session row until commit, so batches of one
   * session are serialized and their `seq` values are handed out in commit order: an
   * enrichment cursor that reached seq N never later sees an event below N appear.
   * One statement is one round trip and needs no explicit transaction.
   */
  /**
   * Two batches inserting the same event ids in opposite orders can deadlock on the unique
   * index; Postgres aborts one. The statement is idempotent (ON CONFLICT DO NOTHING), so the
   * aborted one simply runs again, and so does one whose connection was lost (once: if it had
   * committed, its events come back as duplicates, never as second rows).
   */
  private async storeWithRetry(values: unknown[]): Promise<Array<{ seq: number; session_id: string }>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rows } = await this.pool.query<{ seq: number; session_id: string }>({
          // Named, so each connection plans it once and reuses the plan: the hottest write path.
          name: 'raw-events.store-batch',
          text: STORE_BATCH_SQL,
          values,
        });
        return rows;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= MAX_ATTEMPTS || (code !== DEADLOCK && code !== SERIALIZATION_FAILURE)) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  }

  async storeBatch(projectId: string, batch: EventBatch, now: Date): Promise<StoredBatch> {
    // A repeated id inside one batch keeps its first occurrence, like a repeat across batches.
    const seen = new Set<string>();
    const fresh = batch.events.filter((e) => !seen.has(e.eventId) && seen.add(e.eventId));
    // One JSON parameter rather than an array per column: JSON.stringify is native, while
    // pg escapes array elements in JavaScript, and the batch is ~100 KB of text.
    const events = JSON.stringify(
      fresh.map((e) => ({ i: e.eventId, y: e.type, t: e.timestamp, c: e.content, m: e.metadata ?? null })),
    );

    const values = [newId(), projectId, batch.sessionId, batch.branch ?? null, now, events];
    const rows = await retryOnConnectionLoss(() => this.storeWithRetry(values));

    return {
      sessionId: rows[0]?.session_id,
      accepted: rows.length,
      duplicates: batch.events.length - rows.length,
    };
  }
}
