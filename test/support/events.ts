import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Kysely } from 'kysely';
import { RawEventRepository, type DB } from '@memex/db';
import type { RawEventInput } from '@memex/domain';

/** Stores events straight through the repository (no HTTP, no enqueue), returning the session's id. */
export async function storeEvents(
  app: NestFastifyApplication,
  projectId: string,
  sessionId: string,
  events: RawEventInput[],
): Promise<string> {
  const stored = await app.get(RawEventRepository).storeBatch(projectId, { sessionId, events }, new Date());
  if (!stored.sessionId) throw new Error('no event was stored');
  return stored.sessionId;
}

/** The stored events of the session the hooks named `externalId` (with its branch), in the order they were stored. */
export function storedEventsOf(db: Kysely<DB>, externalId: string) {
  return db
    .selectFrom('raw_events')
    .innerJoin('sessions', 'sessions.id', 'raw_events.session_id')
    .select(['raw_events.event_id', 'raw_events.content', 'raw_events.metadata', 'sessions.branch'])
    .where('sessions.external_id', '=', externalId)
    .orderBy('raw_events.seq')
    .execute();
}

let n = 0;
export function rawEvent(
  type: RawEventInput['type'],
  content: string,
  metadata?: Record<string, unknown>,
): RawEventInput {
  n += 1;
  return {
    eventId: `ev-${process.pid}-${n}`,
    type,
    timestamp: new Date(Date.UTC(2026, 10, 21, 9, 0, n)).toISOString(),
    content,
    ...(metadata ? { metadata } : {}),
  };
}
