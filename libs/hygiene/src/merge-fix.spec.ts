import { ITEM_LIMITS } from '@memex/domain';
import { mergedKeep, type MergeSide } from './merge-fix';

const side = (id: string, over: Partial<MergeSide> = {}): MergeSide => ({
  id,
  files: [],
  tags: [],
  evidenceRefs: [],
  evidenceSpans: [],
  confidence: 0.5,
  importance: null,
  mergedFrom: [],
  ...over,
});

describe('mergedKeep', () => {
  it('records every merged id, its own earlier merges first, without repeats', () => {
    const keep = side('K', { mergedFrom: ['OLD'] });
    const a = side('A', { mergedFrom: ['A0'] });
    expect(mergedKeep(keep, [a, side('B')]).mergedFrom).toEqual(['OLD', 'A0', 'A', 'B']);
  });

  it('takes the highest confidence and importance; no importance stays null', () => {
    const merged = mergedKeep(side('K', { confidence: 0.6, importance: 2 }), [
      side('A', { confidence: 0.9, importance: null }),
      side('B', { confidence: 0.4, importance: 4 }),
    ]);
    expect(merged).toMatchObject({ confidence: 0.9, importance: 4 });
    expect(mergedKeep(side('K'), [side('A')]).importance).toBeNull();
  });

  it("adds the others' files, tags and evidence after the kept item's own, within the limits", () => {
    const files = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}/${i}.ts`);
    const merged = mergedKeep(side('K', { files: files('k', 40), tags: ['a', 'b', 'c'], evidenceRefs: ['e1'] }), [
      side('A', {
        files: [...files('k', 2), ...files('a', 20)],
        tags: ['c', 'd', 'e', 'f'],
        evidenceRefs: ['e1', 'e2'],
      }),
    ]);
    expect(merged.files).toHaveLength(ITEM_LIMITS.files);
    expect(merged.files.slice(0, 40)).toEqual(files('k', 40));
    expect(merged.files[40]).toBe('a/0.ts');
    expect(merged.tags).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(merged.evidenceRefs).toEqual(['e1', 'e2']);
  });

  it('keeps each evidence span once and at most 50', () => {
    const spans = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({ eventId: `e${from + i}`, quote: 'q' }));
    const merged = mergedKeep(side('K', { evidenceSpans: spans(30) }), [side('A', { evidenceSpans: spans(30, 20) })]);
    expect(merged.evidenceSpans).toHaveLength(50);
    expect(new Set(merged.evidenceSpans.map((s) => s.eventId)).size).toBe(50);
    expect(merged.evidenceSpans[0]).toEqual({ eventId: 'e0', quote: 'q' });
  });

  it('keeps as refs the events the kept spans quote, and the refs of items that quote nothing', () => {
    const quoted = (id: string, events: string[]) =>
      side(id, {
        evidenceRefs: [...events, `${id}-old`],
        evidenceSpans: events.map((eventId) => ({ eventId, quote: 'q' })),
      });
    const merged = mergedKeep(quoted('K', ['e1', 'e2']), [quoted('A', ['e2', 'e3'])]);
    expect(merged.evidenceRefs).toEqual(['e1', 'e2', 'e3']);
    expect(mergedKeep(side('K', { evidenceRefs: ['x'] }), [side('A', { evidenceRefs: ['y'] })]).evidenceRefs).toEqual([
      'x',
      'y',
    ]);
  });
});
