import fc from 'fast-check';
import { ITEM_LIMITS } from '@memex/domain';
import { cutText, needsOperatorInput, qualityPatch, type EditableItem } from './quality-fix';
import type { QualityProblem } from './types';

const tooLong = (field: Extract<QualityProblem, { code: 'too-long' }>['field']): QualityProblem => ({
  code: 'too-long',
  field,
  length: 0,
  limit: ITEM_LIMITS[field],
});

function editable(over: Partial<EditableItem> = {}): EditableItem {
  return {
    title: 'Title',
    facts: 'Facts.',
    rationale: null,
    impact: null,
    files: [],
    tags: [],
    confidence: 0.8,
    ...over,
  };
}

describe('cutText', () => {
  it('leaves a text within the limit as it is', () => {
    expect(cutText('x'.repeat(10), 10)).toBe('x'.repeat(10));
  });

  it('cuts at the last line break when it keeps most of the text', () => {
    const text = `${'a'.repeat(80)}\n${'b'.repeat(15)}. More words here\nlast line`;
    expect(cutText(text, 100)).toBe('a'.repeat(80));
  });

  it('else at the last sentence end', () => {
    const text = `${'word '.repeat(12)}ends here. Then ${'more '.repeat(20)}`;
    expect(cutText(text, 80)).toBe(`${'word '.repeat(12)}ends here.`);
  });

  it('else at the last word break, marked with an ellipsis that fits', () => {
    const cut = cutText('alpha beta gamma delta epsilon', 20);
    expect(cut).toBe('alpha beta gamma…');
    expect(cutText('alpha beta gamma, delta', 18)).toBe('alpha beta gamma…');
  });

  it('else hard at the limit, never splitting a surrogate pair', () => {
    expect(cutText('x'.repeat(30), 10)).toBe(`${'x'.repeat(9)}…`);
    const emoji = `${'x'.repeat(8)}😀😀😀`;
    const cut = cutText(emoji, 10);
    expect(cut.length).toBeLessThanOrEqual(10);
    expect(cut).toBe(`${'x'.repeat(8)}…`);
  });

  it('never exceeds the limit, keeps a prefix and leaves no lone surrogate', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'b', ' ', '\n', '.', '!', ',', '😀', 'é'),
          maxLength: 400,
          size: 'max',
        }),
        fc.integer({ min: 1, max: 300 }),
        (text, limit) => {
          const cut = cutText(text, limit);
          expect(cut.length).toBeLessThanOrEqual(limit);
          if (text.length <= limit) expect(cut).toBe(text);
          else expect(text.startsWith(cut.replace(/…$/, ''))).toBe(true);
          expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cut)).toBe(false);
        },
      ),
      { numRuns: 500, endOnFailure: true },
    );
  });
});

describe('qualityPatch', () => {
  it('cuts every over-long field to its limit and nothing else', () => {
    const item = editable({
      title: 'Title words '.repeat(30),
      facts: 'A sentence of facts. '.repeat(300),
      rationale: 'because '.repeat(300),
      impact: 'impact '.repeat(200),
      files: Array.from({ length: 60 }, (_, i) => `src/f${i}.ts`),
      tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
    });
    const problems = (['title', 'facts', 'rationale', 'impact', 'files', 'tags'] as const).map(tooLong);
    const patch = qualityPatch(item, problems);
    expect(patch.title!.length).toBeLessThanOrEqual(200);
    expect(patch.facts!.length).toBeLessThanOrEqual(5000);
    expect(patch.facts!.endsWith('.')).toBe(true);
    expect(patch.rationale!.length).toBeLessThanOrEqual(2000);
    expect(patch.impact!.length).toBeLessThanOrEqual(1000);
    expect(patch.files).toEqual(item.files.slice(0, 50));
    expect(patch.tags).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(patch.confidence).toBeUndefined();
  });

  it('cuts a field exactly at its limit only once it is past it', () => {
    expect(qualityPatch(editable({ title: 'x'.repeat(200) }), [tooLong('title')])).toEqual({});
    expect(qualityPatch(editable({ title: 'x'.repeat(201) }), [tooLong('title')]).title).toHaveLength(200);
    expect(qualityPatch(editable({ tags: ['a', 'b', 'c', 'd', 'e'] }), [tooLong('tags')])).toEqual({});
  });

  it('touches only the fields named by a problem', () => {
    expect(qualityPatch(editable({ title: 'x'.repeat(300) }), [tooLong('facts')])).toEqual({});
  });

  it('lowers the confidence of an item without evidence, never raises it', () => {
    expect(qualityPatch(editable({ confidence: 0.9 }), [{ code: 'no-evidence' }])).toEqual({ confidence: 0.3 });
    expect(qualityPatch(editable({ confidence: 0.3 }), [{ code: 'no-evidence' }])).toEqual({});
    expect(qualityPatch(editable({ confidence: 0.1 }), [{ code: 'no-evidence' }])).toEqual({});
  });

  it('leaves a missing rationale to a person', () => {
    const problems: QualityProblem[] = [{ code: 'decision-without-rationale' }];
    expect(qualityPatch(editable(), problems)).toEqual({});
    expect(needsOperatorInput(problems)).toBe(true);
    expect(needsOperatorInput([{ code: 'no-evidence' }, tooLong('title')])).toBe(false);
  });
});
