import { DAY, NOW, hygieneItem } from './hygiene-item.fixture';
import fc from 'fast-check';
import { dedupGroup, ITEM_TYPES } from '@memex/domain';
import { byKeepPriority, nearDuplicateProposals } from './near-duplicates';
import { itemText, trigramSimilarity } from './trigrams';
import { DEFAULT_HYGIENE_OPTIONS, type HygieneItem, type MergeProposal } from './types';

const OPTIONS = DEFAULT_HYGIENE_OPTIONS;

const item = hygieneItem;

const WORDS = 'auth token refresh rotate cache redis queue worker retry page hook query schema session cookie'.split(
  ' ',
);
const text = (...indices: number[]) => indices.map((i) => WORDS[i]).join(' ');

/** The definition, pair by pair: what the similarity joins must reproduce exactly. */
function naiveProposals(items: HygieneItem[], options = OPTIONS): MergeProposal[] {
  const sim = (a: HygieneItem, b: HygieneItem) => trigramSimilarity(itemText(a), itemText(b));
  const topic = (i: HygieneItem) => (i.dedupHint === null ? null : dedupGroup(i.dedupHint));
  const viaTopic = (a: HygieneItem, b: HygieneItem) =>
    topic(a) !== null && topic(a) === topic(b) && sim(a, b) >= options.topicDuplicateSimilarity;
  const near = (a: HygieneItem, b: HygieneItem) =>
    a.type === b.type && (viaTopic(a, b) || sim(a, b) >= options.duplicateSimilarity);
  const order = [...items].sort(byKeepPriority);
  const grouped = new Set<string>();
  const proposals: MergeProposal[] = [];
  for (const keep of order) {
    if (grouped.has(keep.id)) continue;
    grouped.add(keep.id);
    const members = order.filter((other) => !grouped.has(other.id) && near(keep, other));
    for (const m of members) grouped.add(m.id);
    if (members.length === 0) continue;
    proposals.push({
      kind: 'merge',
      rule: 'near-duplicate',
      itemIds: [keep, ...members].map((i) => i.id).sort(),
      keepId: keep.id,
      basis: members.some((m) => viaTopic(keep, m)) ? 'dedup-topic' : 'similar-text',
      similarity: Math.min(...members.map((m) => sim(keep, m))),
      reason: expect.any(String) as unknown as string,
    });
  }
  return proposals.sort((a, b) => (a.keepId < b.keepId ? -1 : 1));
}

describe('near-duplicate proposals', () => {
  it('groups items of one type that read alike, and no others', () => {
    const a = item({ title: 'Refresh tokens rotate', facts: text(0, 1, 2, 3, 4, 5) });
    const b = item({ title: 'Refresh tokens rotate', facts: text(0, 1, 2, 3, 4, 5, 6) });
    const otherType = item({ type: 'Decision', title: a.title, facts: a.facts });
    const unrelated = item({ title: 'Queue workers retry', facts: text(7, 8, 9, 10) });
    const proposals = nearDuplicateProposals([a, b, otherType, unrelated], OPTIONS);
    expect(proposals).toEqual([
      {
        kind: 'merge',
        rule: 'near-duplicate',
        itemIds: [a.id, b.id],
        keepId: a.id,
        basis: 'similar-text',
        similarity: trigramSimilarity(itemText(a), itemText(b)),
        reason: expect.stringMatching(/^2 ImplementationFact items read alike \(similarity to the kept item 0\.\d+/),
      },
    ]);
  });

  it('groups items of one type and category:topic, however they are worded', () => {
    const a = item({ title: 'Auth tokens', facts: text(0, 1, 2, 3, 4, 5), dedupHint: 'fact:auth:rotation' });
    const b = item({ title: 'Login cookies', facts: text(7, 8, 9, 13, 14), dedupHint: 'fact:auth:expiry' });
    expect(trigramSimilarity(itemText(a), itemText(b))).toBeLessThan(0.1);
    expect(nearDuplicateProposals([a, b], OPTIONS)).toEqual([
      expect.objectContaining({ itemIds: [a.id, b.id], basis: 'dedup-topic' }),
    ]);
    expect(nearDuplicateProposals([a, { ...b, type: 'Convention' }], OPTIONS)).toEqual([]);
  });

  it('groups items of one category:topic at a configured topic threshold, and not below it', () => {
    const a = item({ title: 'Auth tokens', facts: text(0, 1, 2, 3, 4, 5), dedupHint: 'fact:auth:rotation' });
    const b = item({ title: 'Auth tokens', facts: text(0, 1, 2, 3, 8, 9), dedupHint: 'fact:auth:expiry' });
    const similarity = trigramSimilarity(itemText(a), itemText(b));
    expect(similarity).toBeGreaterThanOrEqual(0.4);
    expect(similarity).toBeLessThan(0.75);
    expect(nearDuplicateProposals([a, b], OPTIONS)).toEqual([
      expect.objectContaining({ itemIds: [a.id, b.id], basis: 'dedup-topic', similarity }),
    ]);
    const otherTopic = { ...b, dedupHint: 'fact:cache:expiry' };
    expect(nearDuplicateProposals([a, otherTopic], OPTIONS)).toEqual([]);
    const noHint = { ...b, dedupHint: null };
    expect(nearDuplicateProposals([a, noHint], OPTIONS)).toEqual([]);
    const threshold = { ...OPTIONS, topicDuplicateSimilarity: similarity };
    expect(nearDuplicateProposals([a, b], threshold)).toHaveLength(1);
    expect(nearDuplicateProposals([a, b], { ...threshold, topicDuplicateSimilarity: similarity + 1e-9 })).toEqual([]);
  });

  it('names the topic as the basis only for a member taken at the topic threshold', () => {
    const a = item({ title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 7), dedupHint: 'fact:auth:a' });
    const b = item({ title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 8), dedupHint: 'fact:auth:b' });
    const similarity = trigramSimilarity(itemText(a), itemText(b));
    expect(similarity).toBeGreaterThanOrEqual(0.75);
    expect(similarity).toBeLessThan(0.95);
    expect(nearDuplicateProposals([a, b], OPTIONS)[0]!.basis).toBe('dedup-topic');
    const strictTopic = { ...OPTIONS, topicDuplicateSimilarity: 0.95 };
    expect(nearDuplicateProposals([a, b], strictTopic)[0]!.basis).toBe('similar-text');
  });

  it('does not chain: each member is alike to the kept item itself', () => {
    // a ~ b and b ~ c, but a and c are too far apart.
    const a = item({ confidence: 0.9, title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 7) });
    const b = item({ confidence: 0.8, title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 8) });
    const c = item({ confidence: 0.7, title: 'x', facts: text(0, 1, 2, 3, 4, 5, 9, 8) });
    const sim = (p: HygieneItem, q: HygieneItem) => trigramSimilarity(itemText(p), itemText(q));
    expect(sim(a, b)).toBeGreaterThanOrEqual(0.75);
    expect(sim(b, c)).toBeGreaterThanOrEqual(0.75);
    expect(sim(a, c)).toBeLessThan(0.75);
    expect(nearDuplicateProposals([c, b, a], OPTIONS).map((p) => p.itemIds)).toEqual([[a.id, b.id]]);
    // With b the most trusted, it keeps both.
    const trusted = { ...b, confidence: 0.95 };
    expect(nearDuplicateProposals([c, trusted, a], OPTIONS).map((p) => [p.keepId, p.itemIds])).toEqual([
      [b.id, [a.id, b.id, c.id]],
    ]);
  });

  it('keeps the most confident, then most important, then freshest, then smallest id', () => {
    const facts = text(0, 1, 2, 3, 4);
    const keepOf = (...items: HygieneItem[]) => nearDuplicateProposals(items, OPTIONS)[0]!.keepId;
    const base = item({ facts, title: 't' });
    const a = { ...base, id: 'a', confidence: 0.7 };
    const b = { ...base, id: 'b', confidence: 0.8 };
    expect(keepOf(a, b)).toBe('b');
    expect(keepOf({ ...a, confidence: 0.8, importance: 5 }, b)).toBe('a');
    expect(keepOf({ ...a, confidence: 0.8, importance: null }, { ...b, importance: 1 })).toBe('b');
    expect(keepOf({ ...a, confidence: 0.8, updatedAt: NOW }, b)).toBe('a');
    expect(keepOf({ ...a, confidence: 0.8, lastReinforcedAt: NOW }, b)).toBe('a');
    expect(keepOf({ ...b }, { ...a, confidence: 0.8 })).toBe('a');
  });

  it('reports the lowest similarity to the kept item', () => {
    const a = item({ confidence: 0.9, title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 7, 8, 9) });
    const b = item({ title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 7, 8, 10) });
    const c = item({ title: 'x', facts: text(0, 1, 2, 3, 4, 5, 6, 7, 10, 11) });
    const [proposal] = nearDuplicateProposals([a, b, c], OPTIONS);
    const sims = [b, c].map((m) => trigramSimilarity(itemText(a), itemText(m)));
    expect(proposal!.itemIds).toHaveLength(3);
    expect(proposal!.similarity).toBe(Math.min(...sims));
  });

  const arbitraryItems = fc
    .array(
      fc.record({
        type: fc.constantFrom<HygieneItem['type']>(...ITEM_TYPES.slice(0, 2)),
        words: fc.array(fc.nat({ max: WORDS.length - 1 }), { minLength: 1, maxLength: 12, size: 'max' }),
        copyOf: fc.option(fc.nat(), { nil: null, freq: 2 }),
        edits: fc.array(fc.tuple(fc.nat(), fc.nat({ max: WORDS.length - 1 })), { maxLength: 3 }),
        hint: fc.option(fc.constantFrom('fact:auth:a', 'fact:auth:b', 'fact:cache:a', 'note:auth:a'), { nil: null }),
        confidence: fc.constantFrom(0.5, 0.8, 0.9),
        importance: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
        updated: fc.integer({ min: 0, max: 3 }),
      }),
      { maxLength: 80, size: 'max' },
    )
    .map((specs) => {
      const items: HygieneItem[] = [];
      for (const spec of specs) {
        let words = spec.words;
        if (spec.copyOf !== null && items.length > 0) {
          words = [...items[spec.copyOf % items.length]!.facts.split(' ').map((w) => WORDS.indexOf(w))];
          for (const [at, word] of spec.edits) words[at % words.length] = word;
        }
        items.push(
          item({
            type: spec.type,
            title: 'note',
            facts: text(...words),
            dedupHint: spec.hint,
            confidence: spec.confidence,
            importance: spec.importance,
            updatedAt: NOW - spec.updated * DAY,
          }),
        );
      }
      return items;
    });

  it('equals the pair-by-pair definition', () => {
    fc.assert(
      fc.property(
        arbitraryItems,
        fc.constantFrom(0.5, 0.75, 0.9),
        fc.constantFrom(0, 0.3, 0.4, 0.8, 0.95),
        (items, duplicateSimilarity, topicDuplicateSimilarity) => {
          const options = { ...OPTIONS, duplicateSimilarity, topicDuplicateSimilarity };
          expect(nearDuplicateProposals(items, options)).toEqual(naiveProposals(items, options));
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('never puts an item in two groups, and sorts members and groups', () => {
    fc.assert(
      fc.property(arbitraryItems, (items) => {
        const proposals = nearDuplicateProposals(items, OPTIONS);
        const seen = proposals.flatMap((p) => p.itemIds);
        expect(new Set(seen).size).toBe(seen.length);
        for (const p of proposals) {
          expect(p.itemIds).toEqual([...p.itemIds].sort());
          expect(p.itemIds).toContain(p.keepId);
        }
        const keeps = proposals.map((p) => p.keepId);
        expect(keeps).toEqual([...keeps].sort());
      }),
      { numRuns: 100, endOnFailure: true },
    );
  });
});
