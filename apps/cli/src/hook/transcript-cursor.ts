import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { completeLines } from '@memex/claude-hooks';
import type { ToolMemory } from '@memex/transcript';
import { readJson, writeAtomically } from './atomic-file';

/** Where reading a session's transcript stopped, and the tool calls whose results may follow. */
export interface Cursor {
  transcriptPath: string;
  /** The file the offset is into: a transcript replaced by another file is read from its start. */
  inode?: number;
  offset: number;
  tools: ToolMemory;
  /** The directory the session started in: its paths are read relative to it (TranscriptState.root). */
  root?: string;
}

/** A long first read is split over hooks so one call stays inside its budget. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

function cursorFile(stateDir: string, sessionId: string): string {
  return join(stateDir, 'sessions', `${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.json`);
}

export async function loadCursor(stateDir: string, sessionId: string, transcriptPath: string): Promise<Cursor> {
  const saved = await readJson<Cursor>(cursorFile(stateDir, sessionId));
  if (saved && saved.transcriptPath === transcriptPath && Number.isInteger(saved.offset) && saved.offset >= 0) {
    return {
      transcriptPath,
      ...(typeof saved.inode === 'number' ? { inode: saved.inode } : {}),
      offset: saved.offset,
      tools: Array.isArray(saved.tools) ? saved.tools : [],
      ...(typeof saved.root === 'string' && saved.root ? { root: saved.root } : {}),
    };
  }
  return { transcriptPath, offset: 0, tools: [] };
}

export async function saveCursor(stateDir: string, sessionId: string, cursor: Cursor): Promise<void> {
  await writeAtomically(cursorFile(stateDir, sessionId), JSON.stringify(cursor));
}

/** Whether the transcript holds bytes the cursor has not read (or is another file than it read). */
export async function hasUnread(cursor: Cursor): Promise<boolean> {
  try {
    const { size, ino } = await stat(cursor.transcriptPath);
    return size !== cursor.offset || (cursor.inode !== undefined && cursor.inode !== ino);
  } catch {
    return false;
  }
}

/**
 * The complete lines written since the cursor. Claude Code writes the transcript as it goes,
 * so a half-written last line waits for the next hook. A file shorter than the cursor, or
 * another file at the same path, is read from the start (its events keep their ids, so
 * nothing doubles).
 */
export async function readNewLines(
  cursor: Cursor,
  maxBytes = MAX_READ_BYTES,
): Promise<{ lines: string[]; offset: number; inode?: number }> {
  let handle;
  try {
    handle = await open(cursor.transcriptPath, 'r');
  } catch {
    return { lines: [], offset: cursor.offset, ...(cursor.inode !== undefined ? { inode: cursor.inode } : {}) };
  }
  try {
    const { size, ino } = await handle.stat();
    const replaced = size < cursor.offset || (cursor.inode !== undefined && cursor.inode !== ino);
    const from = replaced ? 0 : cursor.offset;
    const length = Math.min(size - from, maxBytes);
    if (length <= 0) return { lines: [], offset: from, inode: ino };
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, from);
    const { lines, consumed } = completeLines(buffer.subarray(0, bytesRead));
    // A line longer than a whole read is no event worth keeping; skipping it keeps the cursor moving.
    if (consumed === 0 && bytesRead === maxBytes) return { lines: [], offset: from + bytesRead, inode: ino };
    return { lines, offset: from + consumed, inode: ino };
  } finally {
    await handle.close();
  }
}
