import { entityKey, type EntityRef, type Mention, type RelationRef } from './types';

/** Entities of one event paired with each other at most this many, so a list of files is not n². */
const CO_OCCURRING = 8;

const ordered = (a: EntityRef, b: EntityRef): [EntityRef, EntityRef] =>
  entityKey(a) <= entityKey(b) ? [a, b] : [b, a];

/** Entities named by the same event, each unordered pair once. */
export function coOccurrences(mentionsByEvent: ReadonlyArray<readonly Mention[]>): RelationRef[] {
  const out = new Map<string, RelationRef>();
  for (const mentions of mentionsByEvent) {
    const first = mentions.slice(0, CO_OCCURRING);
    for (let i = 0; i < first.length; i += 1) {
      for (let j = i + 1; j < first.length; j += 1) {
        const [source, target] = ordered(first[i]!, first[j]!);
        out.set(`${entityKey(source)}|${entityKey(target)}`, { kind: 'co_occurs', source, target });
      }
    }
  }
  return [...out.values()];
}

/**
 * Files edited with any one file, at most: a session that rewrites a thousand files would
 * otherwise pair each with all the others (half a million edges, sent again each window).
 */
export const EDITED_WITH_CAP = 20;

/**
 * Files edited in the same session: each file this window edited paired with the files the
 * session edited most recently (before or now, up to EDITED_WITH_CAP; `editedInSession` is in
 * the order they were first edited). The weight counts sessions, so the store adds one per
 * pair and session however many windows see it.
 */
export function editedTogether(editedNow: readonly string[], editedInSession: readonly string[]): RelationRef[] {
  const out = new Map<string, RelationRef>();
  const all = [...new Set([...editedInSession, ...editedNow])].slice(-(EDITED_WITH_CAP + 1));
  for (const file of new Set(editedNow)) {
    for (const other of all) {
      if (other === file) continue;
      const [source, target] = ordered({ kind: 'file', name: file }, { kind: 'file', name: other });
      out.set(`${source.name}|${target.name}`, { kind: 'edited_with', source, target });
    }
  }
  return [...out.values()];
}
