import type { EngineEvent, ExistingHint } from './candidate';
import { significantWords } from './text';

/**
 * The existing hints most related to a batch, by how many of a hint's words (its topic and
 * key, and its title) occur in the batch. Bounded so the prompt stays small; ties keep the
 * given order (callers pass the most recently updated first).
 */
export function selectRelatedHints(
  hints: readonly ExistingHint[],
  events: readonly EngineEvent[],
  limit: number,
): ExistingHint[] {
  const batchWords = new Set<string>();
  // A hint's key is split on hyphens, so hyphenated words and path parts count word by word too.
  const addAll = (text: string) => {
    for (const w of significantWords(text)) {
      batchWords.add(w);
      for (const part of w.split('-')) batchWords.add(part);
    }
  };
  for (const e of events) {
    addAll(e.content.slice(0, 4000));
    const path = e.metadata?.path;
    if (typeof path === 'string') addAll(path.replace(/[/.]/g, ' '));
  }
  const scored = hints.map((hint, index) => {
    const [, topic = '', key = ''] = hint.dedupHint.split(':');
    const words = new Set([...topic.split('-'), ...key.split('-'), ...significantWords(hint.title)]);
    let score = 0;
    for (const w of words) if (batchWords.has(w)) score += 1;
    return { hint, index, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((s) => s.hint);
}
