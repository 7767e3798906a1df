/** What the project's memory knows things by: files, code symbols, packages, error signatures, tasks. */
export const ENTITY_KINDS = ['file', 'symbol', 'package', 'error', 'task'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/**
 * How two entities are related: files edited in the same session, entities named by the same
 * event, a task and the subtask it spawned, an error and the files whose edit fixed it.
 */
export const RELATION_KINDS = ['edited_with', 'co_occurs', 'has_subtask', 'fixed_by'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

export interface EntityRef {
  kind: EntityKind;
  name: string;
}

/** An event as extraction reads it: the columns of a stored raw event. */
export interface SourceEvent {
  eventId: string;
  type: string;
  /** Epoch milliseconds. */
  occurredAt: number;
  content: string;
  metadata: Record<string, unknown> | null;
}

/** An entity one event names; `edited` when the event changed the file. */
export interface Mention extends EntityRef {
  eventId: string;
  edited?: boolean;
}

export interface RelationRef {
  kind: RelationKind;
  source: EntityRef;
  target: EntityRef;
}

export const entityKey = (e: EntityRef): string => `${e.kind}:${e.name}`;

/**
 * What an entity is looked up by: a file by its last path segment, anything else by its name,
 * lower case, so a query naming `context-pack.ts` or `SearchService` finds it.
 */
export function lookupName(ref: EntityRef): string {
  const name = ref.kind === 'file' ? ref.name.slice(ref.name.lastIndexOf('/') + 1) : ref.name;
  return name.toLowerCase().slice(0, 200);
}

/** A stored event row (occurredAt a Date) as extraction reads it. */
export function asSourceEvent(row: Omit<SourceEvent, 'occurredAt'> & { occurredAt: Date }): SourceEvent {
  return { ...row, occurredAt: row.occurredAt.getTime() };
}
