import type { RawEventInput } from '@memex/domain';
import { INGEST_LIMITS, isIngestableEvent } from '@memex/event-rules';
import { entryToEvents, newTranscriptState } from './claude-code';

/** tool_use id → the call, kept between hook runs so a result read later still names its tool. */
export type ToolMemory = Array<[string, { name: string; command?: string }]>;
const TOOLS_REMEMBERED = 300;

export interface LinesRead {
  events: RawEventInput[];
  tools: ToolMemory;
  /** Events ingest would refuse (e.g. unpaired surrogates): dropped here so a batch is never refused whole. */
  dropped: number;
  /** The git branch of the latest line that names one. */
  branch?: string;
  /** The session's root (TranscriptState.root), kept between hook runs as the tools are. */
  root?: string;
}

/**
 * Transcript lines (JSONL, already split) to events; lines that are not JSON are skipped. The
 * tools and root an earlier read returned carry the session over from one hook to the next.
 */
export function eventsOfLines(lines: string[], tools: ToolMemory, root?: string): LinesRead {
  const state = newTranscriptState(root);
  for (const [id, call] of tools) state.tools.set(id, call);
  const events: RawEventInput[] = [];
  let dropped = 0;
  let branch: string | undefined;
  for (const line of lines) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const gitBranch = (entry as { gitBranch?: unknown } | null)?.gitBranch;
    if (typeof gitBranch === 'string' && gitBranch && gitBranch.length <= INGEST_LIMITS.maxBranchLength) {
      branch = gitBranch;
    }
    for (const event of entryToEvents(entry, state)) {
      if (isIngestableEvent(event)) events.push(event);
      else dropped += 1;
    }
  }
  return {
    events,
    tools: [...state.tools.entries()].slice(-TOOLS_REMEMBERED),
    dropped,
    ...(branch ? { branch } : {}),
    ...(state.root ? { root: state.root } : {}),
  };
}

/** Batches within ingest's limits, with room to spare for the envelope. */
export function toBatches(
  events: RawEventInput[],
  limits: { maxEvents: number; maxBytes: number } = {
    maxEvents: INGEST_LIMITS.maxEventsPerBatch,
    maxBytes: INGEST_LIMITS.maxBatchBytes - 64 * 1024,
  },
): RawEventInput[][] {
  const batches: RawEventInput[][] = [];
  let current: RawEventInput[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event), 'utf8') + 1;
    if (current.length && (current.length >= limits.maxEvents || bytes + size > limits.maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length) batches.push(current);
  return batches;
}
