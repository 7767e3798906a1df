import type { RawEventInput } from '@memex/domain';
import { INGEST_LIMITS, utf8Bytes } from '@memex/event-rules';
import { redactEventBatch, type Redactor } from '@memex/redaction';
import { capContent, toBatches, type LinesRead } from '@memex/transcript';

/** The body of POST /api/v2/events, less the session id. */
export interface EventsBody {
  branch?: string;
  events: RawEventInput[];
}

/** A placeholder can be longer than what it replaced: an event at ingest's limits is kept within them. */
function withinLimits(event: RawEventInput): RawEventInput {
  const content = capContent(event.content);
  const metadata =
    event.metadata && utf8Bytes(JSON.stringify(event.metadata)) > INGEST_LIMITS.maxMetadataBytes
      ? { truncated: true }
      : event.metadata;
  return content === event.content && metadata === event.metadata
    ? event
    : { ...event, content, ...(metadata ? { metadata } : {}) };
}

/**
 * A transcript's events as ingest takes them, the way hooks and `memex import` both send them:
 * in batches within `limits`, secrets redacted before they leave the machine (or reach a
 * spool on its disk), each event still within ingest's limits after redaction.
 */
export async function redactedBatches(
  read: Pick<LinesRead, 'events' | 'branch'>,
  redactor: Redactor,
  limits?: { maxEvents: number; maxBytes: number },
): Promise<EventsBody[]> {
  const bodies: EventsBody[] = [];
  for (const batch of toBatches(read.events, limits)) {
    const { value } = await redactEventBatch(redactor, {
      ...(read.branch ? { branch: read.branch } : {}),
      events: batch,
    });
    bodies.push({ ...value, events: value.events.map(withinLimits) });
  }
  return bodies;
}
