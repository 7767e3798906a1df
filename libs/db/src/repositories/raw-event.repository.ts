import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { newId, type EventBatch } from '@memex/domain';
import type { DB } from '../schema';
import { KYSELY } from '../tokens';

export interface StoredBatch {
  sessionId: string;
  accepted: number;
  duplicates: number;
  lastEventSeq: number;
}

@Injectable()
export class RawEventRepository {
  constructor(@Inject(KYSELY) private readonly db: Kysely<DB>) {}

  /**
   * Stores a batch in one transaction: the session (created on first sight), then every
   * event whose id the project has not stored before.
   *
   * The session upsert comes first because it locks the session row until commit: batches
   * of one session are serialized, so their `seq` values are handed out in commit order and
   * an enrichment cursor that reached seq N can never later see an event below N appear.
   */
  async storeBatch(projectId: string, batch: EventBatch, now: Date): Promise<StoredBatch> {
    return this.db.transaction().execute(async (trx) => {
      const session = await trx
        .insertInto('sessions')
        .values({
          id: newId(),
          project_id: projectId,
          external_id: batch.sessionId,
          branch: batch.branch ?? null,
          last_event_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['project_id', 'external_id']).doUpdateSet({
            last_event_at: now,
            branch: sql<string | null>`coalesce(excluded.branch, sessions.branch)`,
          }),
        )
        .returning(['id', 'last_event_seq'])
        .executeTakeFirstOrThrow();

      // A repeated id inside one batch keeps its first occurrence, like a repeat across batches.
      const seen = new Set<string>();
      const fresh = batch.events.filter((e) => !seen.has(e.eventId) && seen.add(e.eventId));

      const inserted = await trx
        .insertInto('raw_events')
        .values(
          fresh.map((e) => ({
            project_id: projectId,
            session_id: session.id,
            event_id: e.eventId,
            type: e.type,
            occurred_at: e.timestamp,
            content: e.content,
            metadata: e.metadata === undefined ? null : JSON.stringify(e.metadata),
          })),
        )
        .onConflict((oc) => oc.columns(['project_id', 'event_id']).doNothing())
        .returning('seq')
        .execute();

      let lastEventSeq = session.last_event_seq;
      if (inserted.length > 0) {
        lastEventSeq = Math.max(...inserted.map((r) => r.seq));
        await trx.updateTable('sessions').set({ last_event_seq: lastEventSeq }).where('id', '=', session.id).execute();
      }
      return {
        sessionId: session.id,
        accepted: inserted.length,
        duplicates: batch.events.length - inserted.length,
        lastEventSeq,
      };
    });
  }
}
