import type { SourceEvent } from './types';

/** Tools that change the file they name, and those that only read it. */
export const EDIT_TOOLS = new Set([
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'str_replace_based_edit_tool',
  'apply_patch',
]);
const READ_TOOLS = new Set(['Read', 'NotebookRead', 'view']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toolOf(event: SourceEvent): string | undefined {
  const tool = event.metadata?.tool;
  return typeof tool === 'string' ? tool : undefined;
}

export function inputOf(event: SourceEvent): Record<string, unknown> {
  const input = event.metadata?.input;
  return isObject(input) ? input : {};
}

export function commandOf(event: SourceEvent): string | undefined {
  const fromMeta = event.metadata?.command ?? inputOf(event).command;
  return typeof fromMeta === 'string' ? fromMeta : undefined;
}

/** The file a tool call reads or edits, as the transcript reader made it (relative to the project). */
export function filePathOf(event: SourceEvent): string | undefined {
  const input = inputOf(event);
  const path = input.file_path ?? input.notebook_path ?? input.path;
  return typeof path === 'string' ? path : undefined;
}

export function isEdit(event: SourceEvent): boolean {
  if (event.type === 'file_edit') return true;
  const tool = toolOf(event);
  return event.type === 'tool_call' && tool !== undefined && EDIT_TOOLS.has(tool);
}

export function isRead(event: SourceEvent): boolean {
  const tool = toolOf(event);
  return event.type === 'tool_call' && tool !== undefined && READ_TOOLS.has(tool);
}

/** The new text an edit writes: Write's content, Edit's new_string, each of MultiEdit's. */
export function editedText(event: SourceEvent): string {
  const input = inputOf(event);
  const parts: string[] = [];
  for (const key of ['content', 'new_string', 'new_source']) {
    if (typeof input[key] === 'string') parts.push(input[key] as string);
  }
  if (Array.isArray(input.edits)) {
    for (const edit of input.edits)
      if (isObject(edit) && typeof edit.new_string === 'string') parts.push(edit.new_string);
  }
  if (event.type === 'file_edit') parts.push(event.content);
  return parts.join('\n');
}

/** A failed command or tool: an `error` event, or a result flagged as one. */
export function isFailure(event: SourceEvent): boolean {
  return event.type === 'error' || event.metadata?.isError === true;
}
