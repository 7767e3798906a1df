import { commandOf, filePathOf, isEdit, isFailure } from './event-tools';
import { errorSignature } from './error-signature';
import { installedPackages, isProjectPath, normalisePath } from './names';
import type { SourceEvent } from './types';

/** How far past an error its fix is looked for. */
const LOOKAHEAD_EVENTS = 80;
const FILES_NAMED = 4;

export interface ErrorFix {
  /** `editing src/a.ts, src/b.ts; running \`npm i zod\`` */
  summary: string;
  /** The edits and commands that made the fix, then the run that passed. */
  eventIds: string[];
  /** The files the fix edited. */
  files: string[];
}

export interface ErrorOccurrence {
  signature: string;
  eventId: string;
  occurredAt: number;
  command?: string;
  /** Set when the failing command later passed, with the changes made in between. */
  fix?: ErrorFix;
}

/**
 * Each failure's signature and, when the same command passed later with changes made in
 * between, those changes as its fix. A failure repeated before any pass leaves the fix to
 * the later one: only the changes that preceded the pass are what fixed it.
 */
export function errorOccurrences(events: readonly SourceEvent[]): ErrorOccurrence[] {
  const out: ErrorOccurrence[] = [];
  events.forEach((event, i) => {
    if (!isFailure(event)) return;
    const signature = errorSignature(event.content);
    if (!signature) return;
    const command = commandOf(event);
    const occurrence: ErrorOccurrence = {
      signature,
      eventId: event.eventId,
      occurredAt: event.occurredAt,
      ...(command ? { command } : {}),
    };
    out.push(occurrence);
    if (!command) return;

    const files: string[] = [];
    const ran: string[] = [];
    const changeIds: string[] = [];
    for (const next of events.slice(i + 1, i + 1 + LOOKAHEAD_EVENTS)) {
      if (isFailure(next) && errorSignature(next.content) === signature) return;
      const nextCommand = commandOf(next);
      if (next.type !== 'tool_call' && !isFailure(next) && nextCommand === command) {
        if (changeIds.length > 0) {
          occurrence.fix = { summary: describeFix(files, ran), eventIds: [...changeIds, next.eventId], files };
        }
        return;
      }
      if (isEdit(next)) {
        const path = filePathOf(next);
        if (path && isProjectPath(path) && !files.includes(normalisePath(path))) files.push(normalisePath(path));
        changeIds.push(next.eventId);
      } else if (
        next.type === 'tool_call' &&
        nextCommand &&
        nextCommand !== command &&
        installedPackages(nextCommand).length > 0
      ) {
        ran.push(nextCommand);
        changeIds.push(next.eventId);
      }
    }
  });
  return out;
}

function describeFix(files: string[], ran: string[]): string {
  const parts: string[] = [];
  if (files.length > 0) {
    const more = files.length > FILES_NAMED ? ` +${files.length - FILES_NAMED} more` : '';
    parts.push(`editing ${files.slice(0, FILES_NAMED).join(', ')}${more}`);
  }
  for (const command of ran.slice(0, 2)) parts.push(`running \`${command.replace(/\s+/g, ' ').slice(0, 100)}\``);
  return parts.join('; ') || 'changes in between';
}

export interface PatternRow {
  signature: string;
  /** Occurrences across the project's sessions. */
  occurrences: number;
  sessions: number;
  /** Fixes seen, most often first. */
  fixes: Array<{ summary: string; count: number; eventIds: string[] }>;
}

/** A pattern as one line of a pack: `seen 3 times in 2 sessions; fixed by editing a.ts (2×)`. */
export function describePattern(row: PatternRow): string {
  const seen = `seen ${row.occurrences} time${row.occurrences === 1 ? '' : 's'}${row.sessions > 1 ? ` in ${row.sessions} sessions` : ''}`;
  const fixes = row.fixes.slice(0, 2).map((f) => `${f.summary}${f.count > 1 ? ` (${f.count}×)` : ''}`);
  return `${row.signature} — ${seen}${fixes.length > 0 ? `; fixed by ${fixes.join(' or ')}` : '; no fix recorded'}`;
}
