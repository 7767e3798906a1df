import { Injectable, Logger } from '@nestjs/common';
import { EnrichmentRepository, EntityCursorRepository, EntityRepository, type EntityWindow } from '@memex/db';
import type { EngineEvent } from '@memex/enrichment';
import { itemEntities, windowEntities, type SourceEvent } from '@memex/entities';

/**
 * Events read with a window, the window last: a failure's fix may land windows later, and a
 * todo list's frames span the session, so each window re-reads this many before it. Every
 * write is keyed by event and session, so reading an event again adds nothing.
 */
const LOOKBACK_EVENTS = 200;
/**
 * A session caught up after a failed update re-reads this many of its latest events: every
 * window since the failure, for all but the longest outages of the busiest sessions.
 */
const CATCH_UP_EVENTS = 2000;
/** Sessions caught up per round; the next round takes the next ones. */
const CATCH_UP_SESSIONS = 50;

const asSource = (e: EngineEvent): SourceEvent => ({
  eventId: e.eventId,
  type: e.type,
  occurredAt: e.timestamp.getTime(),
  content: e.content,
  metadata: e.metadata,
});

/** What a window's events add to the entity store, as the repository records it. */
export function entityWindow(events: SourceEvent[], edited: string[], at: Date): EntityWindow {
  const found = windowEntities(events, edited);
  return {
    mentions: found.mentions.map((m) => ({ ...m, occurredAt: new Date(m.occurredAt) })),
    relations: found.relations,
    errors: found.errors.map((e) => ({
      eventId: e.eventId,
      signature: e.signature,
      occurredAt: new Date(e.occurredAt),
      command: e.command ?? null,
      fix: e.fix?.summary ?? null,
      fixEventIds: e.fix?.eventIds ?? [],
    })),
    at,
  };
}

/**
 * Fills the entity store after an enrichment window is written: the entities, relations and
 * error occurrences of its events, and the links of the session's items to what they name.
 * Events and items are stored redacted, so what is derived from them is too.
 */
@Injectable()
export class EntityRecorder {
  private readonly logger = new Logger(EntityRecorder.name);

  constructor(
    private readonly events: EnrichmentRepository,
    private readonly entities: EntityRepository,
    private readonly cursors: EntityCursorRepository,
  ) {}

  /** True when the store now holds what the session's events up to `windowEnd` say. */
  async afterWindow(
    projectId: string,
    sessionId: string,
    windowEnd: number,
    windowEndedAt: Date,
    lookback = LOOKBACK_EVENTS,
  ): Promise<boolean> {
    try {
      const [events, edited] = await Promise.all([
        this.events.eventsUpTo(sessionId, windowEnd, lookback),
        this.entities.sessionEditedFiles(projectId, sessionId),
      ]);
      await this.entities.recordWindow(projectId, sessionId, entityWindow(events.map(asSource), edited, windowEndedAt));
      const items = await this.entities.sessionItems(projectId, sessionId);
      await this.entities.linkItems(
        projectId,
        items.map((item) => ({ itemId: item.itemId, entities: itemEntities(item) })),
        windowEndedAt,
      );
      await this.cursors.markRead(projectId, sessionId, windowEnd);
      return true;
    } catch (error) {
      // The entity store serves retrieval only: a failure here must not undo or stall the
      // window's items, which are committed. Its cursor stays behind, and `catchUp` (or the
      // session's next window) reads these events again.
      this.logger.warn({ err: (error as Error).message, projectId, sessionId }, 'entity store not updated');
      return false;
    }
  }

  /** Reads again what failed updates left out, for sessions no run is working on. Returns how many caught up. */
  async catchUp(): Promise<number> {
    let caughtUp = 0;
    for (const s of await this.cursors.behind(CATCH_UP_SESSIONS)) {
      if (await this.afterWindow(s.projectId, s.sessionId, s.cursor, s.lastEventAt, CATCH_UP_EVENTS)) caughtUp += 1;
    }
    return caughtUp;
  }
}
