import { ITEM_LIMITS, type MemoryItem } from '@memex/domain';
import type { QualityProblem } from './types';

/** The parts of an item a quality edit may change. */
export type EditableItem = Pick<
  MemoryItem,
  'title' | 'facts' | 'rationale' | 'impact' | 'files' | 'tags' | 'confidence'
>;

/** An item without evidence keeps at most this confidence, so archive-low-confidence retires it unless it is confirmed. */
export const UNSUPPORTED_CONFIDENCE = 0.3;

const ELLIPSIS = '…';
const SENTENCE_END = /[.!?]/;
const SPACE = /\s/;

/**
 * `text` cut to at most `limit` characters where a reader expects a break. The latest line
 * break is taken if it keeps three quarters of the room, else the latest sentence end keeping
 * half, else the latest word break keeping half (marked with '…'); a text with none of these
 * is cut at the limit (with '…', never splitting a surrogate pair).
 */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit <= 0) return '';

  const line = text.lastIndexOf('\n', limit);
  if (line >= Math.max(1, limit * 0.75)) {
    const kept = text.slice(0, line).trimEnd();
    if (kept.length > 0) return kept;
  }
  const half = Math.max(1, limit / 2);
  for (let end = limit; end >= half; end--) {
    if (SENTENCE_END.test(text[end - 1]!) && SPACE.test(text[end]!)) return text.slice(0, end);
  }
  // Room for the ellipsis: the word must end by limit - 1.
  for (let end = limit - 1; end >= half; end--) {
    if (SPACE.test(text[end]!) && !SPACE.test(text[end - 1]!)) {
      const kept = text.slice(0, end).replace(/[\s,;:–—-]+$/, '');
      if (kept.length > 0) return kept + ELLIPSIS;
    }
  }
  let end = limit - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + ELLIPSIS;
}

type TextField = 'title' | 'facts' | 'rationale' | 'impact';
const TEXT_FIELDS: readonly TextField[] = ['title', 'facts', 'rationale', 'impact'];

/**
 * The automatic part of a quality edit: only the fields it changes. Over-long texts and lists
 * are cut to their limits (measured on the item as it is now, since it may have changed
 * since the proposal); an item without evidence keeps at most UNSUPPORTED_CONFIDENCE. A
 * Decision without a rationale gets nothing: only a person can say why it was made.
 */
export function qualityPatch(item: EditableItem, problems: QualityProblem[]): Partial<EditableItem> {
  const patch: Partial<EditableItem> = {};
  const tooLong = new Set(problems.flatMap((p) => (p.code === 'too-long' ? [p.field] : [])));
  for (const field of TEXT_FIELDS) {
    const value = item[field];
    if (tooLong.has(field) && value !== null && value.length > ITEM_LIMITS[field]) {
      patch[field] = cutText(value, ITEM_LIMITS[field]);
    }
  }
  for (const field of ['files', 'tags'] as const) {
    if (tooLong.has(field) && item[field].length > ITEM_LIMITS[field]) {
      patch[field] = item[field].slice(0, ITEM_LIMITS[field]);
    }
  }
  if (problems.some((p) => p.code === 'no-evidence') && item.confidence > UNSUPPORTED_CONFIDENCE) {
    patch.confidence = UNSUPPORTED_CONFIDENCE;
  }
  return patch;
}

/** Whether an edit needs a person: some problems have no automatic fix. */
export function needsOperatorInput(problems: QualityProblem[]): boolean {
  return problems.some((p) => p.code === 'decision-without-rationale');
}
