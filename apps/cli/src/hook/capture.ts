import { completesSession, type HookEvent, type HookPayload } from '@memex/claude-hooks';
import type { RawEventInput } from '@memex/domain';
import type { RedactionEnv } from './hook-config';
import type { Spool } from './spool';
import { loadCursor, readNewLines, saveCursor } from './transcript-cursor';

/**
 * Small batches: a hook has under 2 s, and a batch that cannot be uploaded in that time would
 * stay in the spool for ever.
 */
const BATCH_LIMITS = { maxEvents: 200, maxBytes: 1024 * 1024 };

/** How much of a transcript's start is read for the directory its session began in: its first lines name it. */
const ROOT_READ_BYTES = 64 * 1024;

/**
 * Turns what the transcript gained since the last hook into spooled batches, then moves the
 * cursor. Spooling comes first: killed in between, the next hook reads the same lines again
 * and their events keep their ids, so ingest counts them as duplicates. Secrets are redacted
 * before anything reaches the disk: the spool, and the commands the cursor remembers (not the
 * session's starting directory it keeps, which the transcript beside it names on every line).
 */
export async function captureTranscript(
  event: HookEvent,
  payload: HookPayload,
  spool: Spool,
  stateDir: string,
  redactionEnv: RedactionEnv,
): Promise<{ events: RawEventInput[]; dropped: number; redactionProblem?: string }> {
  const sessionId = payload.session_id;
  let events: RawEventInput[] = [];
  let dropped = 0;
  let redactionProblem: string | undefined;
  if (payload.transcript_path) {
    const cursor = await loadCursor(stateDir, sessionId, payload.transcript_path);
    const { lines, offset, inode } = await readNewLines(cursor);
    let tools = cursor.tools;
    let root = cursor.root;
    if (lines.length > 0) {
      // Loaded only when the transcript grew: turning lines into events and redacting them
      // loads the transcript reader and the redaction rules, which a SessionStart of a new
      // session or a hook with nothing new never needs. Neither loads zod (@memex/event-rules).
      const [{ eventsOfLines }, { Redactor }, { redactedBatches }, { redactionSettings }] = await Promise.all([
        import('@memex/transcript'),
        import('@memex/redaction'),
        import('../transcript-events'),
        import('./redaction-settings'),
      ]);
      const settings = redactionSettings(redactionEnv);
      redactionProblem = settings.problem;
      const redactor = new Redactor(settings.redaction);
      // A cursor an earlier version saved past the first lines has no root: read them again for it.
      const start =
        cursor.root === undefined && cursor.offset > 0
          ? await readNewLines({ transcriptPath: cursor.transcriptPath, offset: 0, tools: [] }, ROOT_READ_BYTES)
          : undefined;
      const knownRoot = cursor.root ?? (start ? eventsOfLines(start.lines, []).root : undefined);
      const read = eventsOfLines(lines, cursor.tools, knownRoot);
      for (const body of await redactedBatches(read, redactor, BATCH_LIMITS)) {
        await spool.add({ kind: 'events', sessionId, ...body });
      }
      events = read.events;
      dropped = read.dropped;
      tools = (await redactor.value(read.tools)).value;
      // Kept as read: the transcript beside the cursor names this directory on every line, and a
      // redacted root would no longer prefix the paths it is there to shorten.
      root = read.root;
    }
    if (offset !== cursor.offset || inode !== cursor.inode) {
      await saveCursor(stateDir, sessionId, {
        transcriptPath: payload.transcript_path,
        ...(inode !== undefined ? { inode } : {}),
        offset,
        tools,
        ...(root ? { root } : {}),
      });
    }
  }
  // SessionEnd is the one that says the session is over: a turn it leaves mid-work is done.
  if (completesSession(event)) {
    await spool.add({ kind: 'complete', sessionId, ...(event === 'SessionEnd' ? { ended: true as const } : {}) });
  }
  return { events, dropped, ...(redactionProblem ? { redactionProblem } : {}) };
}
