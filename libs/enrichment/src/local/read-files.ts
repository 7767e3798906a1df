import type { EngineEvent } from '../candidate';
import { inputField } from './event-signals';

/** A file the session read whole or in part, as the Read tool showed it. */
export interface ReadFile {
  path: string;
  /** The file's lines, without the line numbers Claude Code puts before them. */
  lines: string[];
  event: EngineEvent;
}

/** Claude Code's Read output: `    12→text`. */
const NUMBERED = /^\s*\d+→/;

/** Where an absolute path's project part begins: its first directory of these. */
const PROJECT_PART = /\/((?:packages|apps|libs|services|crates|cmd|internal|src|\.github)\/.*)$/;

/**
 * The path a Read asked for, within the project. Claude Code's reader makes paths under the
 * session's directory relative; one outside it (the session moved, or read a sibling checkout)
 * stays absolute and is cut to its project part.
 */
function inputPath(event: EngineEvent): string | undefined {
  const path = inputField(event, 'file_path');
  if (typeof path !== 'string') return undefined;
  return path.startsWith('/') ? (PROJECT_PART.exec(path)?.[1] ?? path.split('/').slice(-2).join('/')) : path;
}

/** The files the window's Read calls returned, by the path each call asked for. */
export function readFiles(events: readonly EngineEvent[]): ReadFile[] {
  const asked = new Map<string, string>();
  const files: ReadFile[] = [];
  for (const event of events) {
    const id = event.metadata?.toolUseId;
    if (typeof id !== 'string' || event.metadata?.tool !== 'Read') continue;
    if (event.type === 'tool_call') {
      const path = inputPath(event);
      if (path) asked.set(id, path);
    } else if (event.type === 'tool_result' && asked.has(id)) {
      // Only numbered lines are the file's: Claude Code may append a <system-reminder> after them.
      const lines = event.content
        .split('\n')
        .filter((l) => NUMBERED.test(l))
        .map((l) => l.replace(NUMBERED, ''));
      if (lines.length > 0) files.push({ path: asked.get(id)!, lines, event });
    }
  }
  return files;
}
