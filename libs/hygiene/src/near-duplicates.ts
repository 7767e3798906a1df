import { dedupGroup } from '@memex/domain';
import type { HygieneItem, HygieneOptions, MergeProposal } from './types';
import { decimal } from './format';
import { lastTouched } from './lifecycle-rules';
import { PairList, SimilarityJoin } from './similarity-join';
import { buildTokenSets } from './token-sets';
import { itemText } from './trigrams';

type DuplicateOptions = Pick<HygieneOptions, 'duplicateSimilarity' | 'topicDuplicateSimilarity'>;

/** `category:topic` of an item's dedup hint, or null without one. */
export function topicOf(item: HygieneItem): string | null {
  return item.dedupHint === null ? null : dedupGroup(item.dedupHint);
}

/**
 * The order in which items claim their near-duplicates: the item a group is merged into is
 * the one most trusted (confidence, then importance, a missing one last), then the freshest.
 */
export function byKeepPriority(a: HygieneItem, b: HygieneItem): number {
  return (
    b.confidence - a.confidence ||
    (b.importance ?? 0) - (a.importance ?? 0) ||
    lastTouched(b) - lastTouched(a) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function groupBy(indices: Iterable<number>, key: (i: number) => string | null): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const i of indices) {
    const k = key(i);
    if (k === null) continue;
    const group = groups.get(k);
    if (group) group.push(i);
    else groups.set(k, [i]);
  }
  return groups;
}

/**
 * Every near-duplicate pair of the items, as an adjacency list: two items of one type are
 * near-duplicates when their texts are at least `duplicateSimilarity` alike, or, sharing a
 * `category:topic`, at least `topicDuplicateSimilarity`. Found by similarity joins, per type
 * and per type and topic, never by comparing all pairs.
 */
function nearDuplicatePairs(
  items: readonly HygieneItem[],
  topics: readonly (string | null)[],
  options: DuplicateOptions,
) {
  const sets = buildTokenSets(items.map(itemText));
  const joiner = new SimilarityJoin(sets);
  const pairs = new PairList();

  // A pair of one topic at or above duplicateSimilarity is found by the topic's join, at its
  // lower threshold; the type's join passes over such pairs rather than find them twice.
  const topicJoins = options.topicDuplicateSimilarity <= options.duplicateSimilarity;
  const topicOfItem = new Int32Array(items.length).fill(-1);
  if (topicJoins) {
    const groups = groupBy(items.keys(), (i) => (topics[i] === null ? null : `${items[i]!.type} ${topics[i]}`));
    let number = 0;
    for (const members of groups.values()) {
      for (const i of members) topicOfItem[i] = number;
      number++;
      if (members.length > 1) joiner.join(members, options.topicDuplicateSimilarity, pairs);
    }
  }
  for (const members of groupBy(items.keys(), (i) => items[i]!.type).values()) {
    joiner.join(members, options.duplicateSimilarity, pairs, topicOfItem);
  }

  // Compressed adjacency: the neighbours of i are neighbour[first[i]..first[i+1]).
  const { count, left, right, similarity } = pairs;
  const first = new Int32Array(items.length + 1);
  for (let p = 0; p < count; p++) {
    first[left[p]! + 1]!++;
    first[right[p]! + 1]!++;
  }
  for (let i = 0; i < items.length; i++) first[i + 1]! += first[i]!;
  const fill = first.slice(0, items.length);
  const neighbour = new Int32Array(2 * count);
  const neighbourSimilarity = new Float64Array(2 * count);
  for (let p = 0; p < count; p++) {
    const a = left[p]!;
    const b = right[p]!;
    neighbour[fill[a]!] = b;
    neighbourSimilarity[fill[a]!++] = similarity[p]!;
    neighbour[fill[b]!] = a;
    neighbourSimilarity[fill[b]!++] = similarity[p]!;
  }
  return { first, neighbour, neighbourSimilarity };
}

/**
 * Near-duplicate groups of live items, one merge proposal each. Groups do not chain: items
 * are taken in keep-priority order, and each item not yet in a group starts one and takes
 * every item not yet in a group that is a near-duplicate of it directly, so every member of a
 * group is close to the item it would be merged into, not merely to another member.
 *
 * The basis is `dedup-topic` when at least one member was taken on the lower threshold of a
 * shared `category:topic` (it shares the keeper's topic and reaches topicDuplicateSimilarity),
 * else `similar-text`.
 */
export function nearDuplicateProposals(items: readonly HygieneItem[], options: DuplicateOptions): MergeProposal[] {
  const topics = items.map(topicOf);
  const { first, neighbour, neighbourSimilarity } = nearDuplicatePairs(items, topics, options);
  const order = [...items.keys()].sort((a, b) => byKeepPriority(items[a]!, items[b]!));
  const grouped = new Uint8Array(items.length);
  const proposals: MergeProposal[] = [];

  for (const keeper of order) {
    if (grouped[keeper]) continue;
    grouped[keeper] = 1;
    const keep = items[keeper]!;
    const topic = topics[keeper]!;
    const members = [keep.id];
    let lowest = 1;
    let byTopic = false;
    for (let k = first[keeper]!; k < first[keeper + 1]!; k++) {
      const other = neighbour[k]!;
      if (grouped[other]) continue;
      grouped[other] = 1;
      const similarity = neighbourSimilarity[k]!;
      members.push(items[other]!.id);
      lowest = Math.min(lowest, similarity);
      if (topic !== null && topic === topics[other] && similarity >= options.topicDuplicateSimilarity) {
        byTopic = true;
      }
    }
    if (members.length < 2) continue;
    members.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    proposals.push({
      kind: 'merge',
      rule: 'near-duplicate',
      itemIds: members,
      keepId: keep.id,
      basis: byTopic ? 'dedup-topic' : 'similar-text',
      similarity: lowest,
      reason:
        `${members.length} ${keep.type} items ${byTopic ? `share the topic ${topic}` : 'read alike'} ` +
        `(similarity to the kept item ${decimal(lowest)} or more); keep ${keep.id}, the most trusted and freshest`,
    });
  }
  return proposals.sort((a, b) => (a.keepId < b.keepId ? -1 : a.keepId > b.keepId ? 1 : 0));
}
