import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawEventRepository } from '@memex/db';
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
