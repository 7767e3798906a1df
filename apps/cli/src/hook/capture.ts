import { completesSession, eventsOfLines, type HookEvent, type HookPayload } from '@memex/claude-hooks';
import type { RawEventInput } from '@memex/domain';
import type { Redactor } from '@memex/redaction';
import { redactedBatches } from '../transcript-events';
import type { Spool } from './spool';
import { loadCursor, readNewLines, saveCursor } from './transcript-cursor';

/**
 * Small batches: a hook has under 2 s, and a batch that cannot be uploaded in that time would
 * stay in the spool for ever.
 */
const BATCH_LIMITS = { maxEvents: 200, maxBytes: 1024 * 1024 };

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
    for (const body of await redactedBatches(read, redactor, BATCH_LIMITS)) {
      await spool.add({ kind: 'events', sessionId, ...body });
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
