import { completesSession, eventsOfLines, toBatches, type HookEvent, type HookPayload } from '@memex/claude-hooks';
import { INGEST_LIMITS, utf8Bytes, type RawEventInput } from '@memex/domain';
import { redactEventBatch, type Redactor } from '@memex/redaction';
import { capContent } from '@memex/transcript';
import type { Spool } from './spool';
import { loadCursor, readNewLines, saveCursor } from './transcript-cursor';

/**
 * Small batches: a hook has under 2 s, and a batch that cannot be uploaded in that time would
 * stay in the spool for ever.
 */
const BATCH_LIMITS = { maxEvents: 200, maxBytes: 1024 * 1024 };

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
 * Turns what the transcript gained since the last hook into spooled batches, then moves the
 * cursor. Spooling comes first: killed in between, the next hook reads the same lines again
 * and their events keep their ids, so ingest counts them as duplicates. Secrets are redacted
 * before anything reaches the disk: the spool, and the commands the cursor remembers.
 */
export async function captureTranscript(
  event: HookEvent,
  payload: HookPayload,
  spool: Spool,
  stateDir: string,
  redactor: Redactor,
): Promise<{ events: RawEventInput[]; dropped: number }> {
  const sessionId = payload.session_id;
  let events: RawEventInput[] = [];
  let dropped = 0;
  if (payload.transcript_path) {
    const cursor = await loadCursor(stateDir, sessionId, payload.transcript_path);
    const { lines, offset, inode } = await readNewLines(cursor);
    const read = eventsOfLines(lines, cursor.tools);
    for (const batch of toBatches(read.events, BATCH_LIMITS)) {
      const { value } = await redactEventBatch(redactor, {
        ...(read.branch ? { branch: read.branch } : {}),
        events: batch,
      });
      await spool.add({ kind: 'events', sessionId, ...value, events: value.events.map(withinLimits) });
    }
    events = read.events;
    dropped = read.dropped;
    if (offset !== cursor.offset || inode !== cursor.inode) {
      await saveCursor(stateDir, sessionId, {
        transcriptPath: payload.transcript_path,
        ...(inode !== undefined ? { inode } : {}),
        offset,
        tools: (await redactor.value(read.tools)).value,
      });
    }
  }
  if (completesSession(event)) await spool.add({ kind: 'complete', sessionId });
  return { events, dropped };
}
