import type { HygieneItem, Transition } from './types';
import { decimal } from './format';
import { jaccard, trigrams } from './trigrams';

/** Identical facts never conflict, even with no word to compare (both sets empty). */
function factsSimilarity(a: Int32Array, b: Int32Array): number {
  return a.length === 0 && b.length === 0 ? 1 : jaccard(a, b);
}

/**
 * Two facts of one group less similar than `threshold`, if there is such a pair. Jaccard
 * distance (1 − J) is a metric, so when every fact is within (1 − t)/2 of the first one, no
 * pair can be further apart than 1 − t: a large group of agreeing items costs one pass, not
 * all its pairs.
 */
function dissimilarPair(facts: Int32Array[], threshold: number): number | null {
  const pivot = facts[0]!;
  let farthest = 0;
  for (let k = 1; k < facts.length; k++) {
    const similarity = factsSimilarity(pivot, facts[k]!);
    if (similarity < threshold) return similarity;
    farthest = Math.max(farthest, 1 - similarity);
  }
  if (farthest < (1 - threshold) / 2 - 1e-9) return null;
  for (let a = 1; a < facts.length; a++) {
    for (let b = a + 1; b < facts.length; b++) {
      const similarity = factsSimilarity(facts[a]!, facts[b]!);
      if (similarity < threshold) return similarity;
    }
  }
  return null;
}

/**
 * Live items sharing a full dedup hint say the same thing; when their facts disagree, the
 * active ones wait for a person (review). Stale ones stay: review is only reached from active.
 * `moved` holds the items another rule already moved this pass (one move per item per pass).
 */
export function conflictTransitions(
  live: readonly HygieneItem[],
  moved: ReadonlySet<string>,
  threshold: number,
): Transition[] {
  const byHint = new Map<string, HygieneItem[]>();
  for (const item of live) {
    if (item.dedupHint === null) continue;
    const group = byHint.get(item.dedupHint);
    if (group) group.push(item);
    else byHint.set(item.dedupHint, [item]);
  }

  const transitions: Transition[] = [];
  for (const [hint, group] of byHint) {
    if (group.length < 2) continue;
    const reviewed = group.filter((item) => item.status === 'active' && !moved.has(item.id));
    if (reviewed.length === 0) continue;
    const similarity = dissimilarPair(
      group.map((item) => trigrams(item.facts)),
      threshold,
    );
    if (similarity === null) continue;
    for (const item of reviewed) {
      transitions.push({
        itemId: item.id,
        from: 'active',
        to: 'review',
        rule: 'conflicting-facts',
        reason:
          `${group.length} live items share the dedup hint ${hint} but state different facts ` +
          `(similarity ${decimal(similarity, threshold)} between two of them, below ${threshold})`,
      });
    }
  }
  return transitions;
}
