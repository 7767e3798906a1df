import { commandOf, editedText, filePathOf, isEdit, isFailure, isRead } from './event-tools';
import { errorSignature } from './error-signature';
import {
  declaredSymbols,
  installedPackages,
  isProjectPath,
  manifestPackages,
  namedSymbols,
  normalisePath,
  pathsIn,
} from './names';
import { entityKey, type EntityRef, type Mention, type SourceEvent } from './types';

/** Events name at most this many entities, so one huge paste cannot flood the store. */
const MAX_PER_EVENT = 40;
/** Prose is read for names only in what a person or the assistant wrote, not in tool output. */
const PROSE_TYPES = new Set(['prompt', 'response', 'note', 'commit']);

/**
 * The entities one event names: the file a tool call reads or edits (and the symbols and
 * packages its edit declares), paths and packages a command names, an error's signature,
 * and paths and code identifiers in prose.
 */
export function mentionsOf(event: SourceEvent): Mention[] {
  const out = new Map<string, Mention>();
  const add = (ref: EntityRef, edited = false) => {
    const key = entityKey(ref);
    const seen = out.get(key);
    if (seen) seen.edited ||= edited;
    else if (out.size < MAX_PER_EVENT) out.set(key, { ...ref, eventId: event.eventId, ...(edited ? { edited } : {}) });
  };

  const path = filePathOf(event);
  if (event.type === 'tool_call' && path && isProjectPath(path) && (isEdit(event) || isRead(event))) {
    const file = normalisePath(path);
    add({ kind: 'file', name: file }, isEdit(event));
    if (isEdit(event)) {
      const text = editedText(event);
      for (const name of declaredSymbols(text)) add({ kind: 'symbol', name });
      for (const name of manifestPackages(file, text)) add({ kind: 'package', name });
    }
  } else if (event.type === 'file_edit') {
    for (const file of pathsIn(event.content)) add({ kind: 'file', name: file }, true);
    for (const name of declaredSymbols(event.content)) add({ kind: 'symbol', name });
  }

  const command = commandOf(event);
  if (command && event.type === 'tool_call') {
    for (const name of installedPackages(command)) add({ kind: 'package', name });
    for (const file of pathsIn(command)) add({ kind: 'file', name: file });
  }

  if (isFailure(event)) {
    const signature = errorSignature(event.content);
    if (signature) add({ kind: 'error', name: signature });
  }

  if (PROSE_TYPES.has(event.type)) for (const ref of textEntities(event.content)) add(ref);
  return [...out.values()];
}

/** Files and symbols a piece of prose names: an item's text, a prompt, a query. */
export function textEntities(text: string): EntityRef[] {
  const files = pathsIn(text);
  // A path's own parts (`context-pack`, `ts`) are not symbols besides it.
  const inPaths = new Set(files.flatMap((f) => f.split(/[/.]/)));
  return [
    ...files.map((name) => ({ kind: 'file' as const, name })),
    ...namedSymbols(text)
      .filter((name) => !inPaths.has(name))
      .map((name) => ({ kind: 'symbol' as const, name })),
  ];
}
