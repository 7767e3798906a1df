import { mentionsOf, textEntities } from './extract';
import { errorOccurrences, type ErrorOccurrence } from './patterns';
import { coOccurrences, editedTogether } from './relations';
import { TASK_TOOLS, taskStack } from './task-frames';
import { lookupName, type EntityRef, type Mention, type RelationRef, type SourceEvent } from './types';

/** What a run of a session's events adds to the entity store. */
export interface WindowEntities {
  mentions: Array<Mention & { base: string; occurredAt: number; edited: boolean }>;
  relations: Array<RelationRef & { source: EntityRef & { base: string }; target: EntityRef & { base: string } }>;
  errors: ErrorOccurrence[];
}

const GOAL_NAME = 200;
const withBase = <T extends EntityRef>(ref: T) => ({ ...ref, base: lookupName(ref) });

/**
 * The entities, relations and error occurrences of a session's events (a window and the turn
 * before it). Everything is keyed by event and session, so reading an event twice adds nothing.
 * `editedInSession` is the files the session was recorded editing before.
 */
export function windowEntities(events: readonly SourceEvent[], editedInSession: readonly string[]): WindowEntities {
  const found = events.map((event) => ({ event, mentions: mentionsOf(event) }));
  const fullPath = fullPaths([
    ...found.flatMap((f) => f.mentions),
    ...editedInSession.map((name) => ({ kind: 'file' as const, name })),
  ]);
  // A file named by its base name where the session also names its one path is that file.
  const byEvent = found.map(({ event, mentions }) => ({
    event,
    mentions: mentions.map((m) =>
      m.kind === 'file' && fullPath.has(m.name) ? { ...m, name: fullPath.get(m.name)! } : m,
    ),
  }));
  const mentions = byEvent.flatMap(({ event, mentions }) =>
    mentions.map((m) => ({ ...withBase(m), occurredAt: event.occurredAt, edited: m.edited === true })),
  );
  const errors = errorOccurrences(events);
  const editedNow = mentions.filter((m) => m.kind === 'file' && m.edited).map((m) => m.name);
  const relations: RelationRef[] = [
    ...coOccurrences(byEvent.map((b) => b.mentions)),
    ...editedTogether(editedNow, editedInSession),
    ...subtasks(events),
    ...fixes(errors),
  ];
  return {
    mentions,
    relations: relations.map((r) => ({ ...r, source: withBase(r.source), target: withBase(r.target) })),
    errors,
  };
}

/**
 * Base names (`tokenizer.css`) the session also names with exactly one path
 * (`public/tokenizer.css`): the same file, which must be one entity. A base name two paths
 * share stays as it is.
 */
function fullPaths(refs: ReadonlyArray<{ kind: string; name: string }>): Map<string, string> {
  const paths = new Map<string, Set<string>>();
  for (const r of refs) {
    if (r.kind !== 'file' || !r.name.includes('/')) continue;
    const base = r.name.slice(r.name.lastIndexOf('/') + 1);
    paths.set(base, (paths.get(base) ?? new Set()).add(r.name));
  }
  const out = new Map<string, string>();
  for (const [base, full] of paths) if (full.size === 1) out.set(base, [...full][0]!);
  return out;
}

/** Error → file edges: the files whose edit fixed a failure. */
function fixes(errors: readonly ErrorOccurrence[]): RelationRef[] {
  return errors.flatMap((e) =>
    (e.fix?.files ?? []).map((file) => ({
      kind: 'fixed_by' as const,
      source: { kind: 'error' as const, name: e.signature },
      target: { kind: 'file' as const, name: file },
    })),
  );
}

/** Task → subtask edges of the session's task frames, tasks named by their goal. */
function subtasks(events: readonly SourceEvent[]): RelationRef[] {
  if (!events.some((e) => e.metadata?.tool !== undefined && isTaskTool(e))) return [];
  const stack = taskStack(events);
  const byId = new Map(stack.frames.map((f) => [f.id, f]));
  return stack.frames.flatMap((frame) => {
    const parent = frame.parent ? byId.get(frame.parent) : undefined;
    if (!parent || !parent.eventId) return [];
    return [
      {
        kind: 'has_subtask' as const,
        source: { kind: 'task' as const, name: parent.goal.slice(0, GOAL_NAME) },
        target: { kind: 'task' as const, name: frame.goal.slice(0, GOAL_NAME) },
      },
    ];
  });
}

const isTaskTool = (event: SourceEvent) =>
  event.type === 'tool_call' && (TASK_TOOLS as readonly string[]).includes(String(event.metadata?.tool));

/** The entities an item names: its files, and the files and symbols in its text. */
export function itemEntities(item: {
  title: string;
  facts: string;
  rationale: string | null;
  files: string[];
}): Array<EntityRef & { base: string }> {
  const refs = new Map<string, EntityRef>();
  for (const file of item.files) refs.set(`file:${file}`, { kind: 'file', name: file });
  for (const ref of textEntities([item.title, item.facts, item.rationale ?? ''].join('\n')))
    refs.set(`${ref.kind}:${ref.name}`, ref);
  return [...refs.values()].map(withBase);
}
