import { choosePatternSignatures, type SignatureHit } from './pattern-choice';
import { entityLine } from './pack-lines';

const hit = (word: string, signature: string, mentions = 1, lastSeenAt = 0): SignatureHit => ({
  word,
  signature,
  mentions,
  lastSeenAt,
});

describe('choosing the error patterns a pack shows', () => {
  it('puts quoted signatures first, then those holding the most selective words, the most named first', () => {
    const hits = [
      hit('totals', 'TypeError: totals is undefined', 9),
      hit('totals', 'TypeError: totalsGuard.map is not a function', 2),
      hit('guard', 'TypeError: totalsGuard.map is not a function', 2),
      hit('guard', 'RangeError: guard depth exceeded', 4),
    ];
    expect(choosePatternSignatures(['Error: quoted'], hits, 5)).toEqual([
      'Error: quoted',
      'TypeError: totalsGuard.map is not a function',
      'TypeError: totals is undefined',
      'RangeError: guard depth exceeded',
    ]);
    expect(choosePatternSignatures([], hits, 2)).toHaveLength(2);
  });

  it('lets a word most signatures hold pick none of them, so a sample of it never decides', () => {
    const common = Array.from({ length: 4 }, (_, i) => hit('function', `TypeError: x${i}.map is not a function`, 50));
    const hits = [...common, hit('totalsguard', 'TypeError: totalsGuard.map is not a function')];
    expect(choosePatternSignatures([], hits, 5, 3)).toEqual(['TypeError: totalsGuard.map is not a function']);
    // At the cap the word is still selective: the store returned all it holds.
    expect(choosePatternSignatures([], hits, 5, 4)).toHaveLength(5);
  });

  it('breaks ties by recency, then by signature, whatever order the store answered in', () => {
    const a = hit('map', 'B: map', 1, 10);
    const b = hit('map', 'A: map', 1, 10);
    const c = hit('map', 'C: map', 1, 20);
    expect(choosePatternSignatures([], [a, b, c], 5)).toEqual(['C: map', 'A: map', 'B: map']);
    expect(choosePatternSignatures([], [c, b, a], 5)).toEqual(['C: map', 'A: map', 'B: map']);
  });
});

describe('an entity line', () => {
  it('says "100+ items" once the count reached the cap it is counted to', () => {
    const entity = { kind: 'symbol', name: 'TypeError', mentions: 3, lastSeenAt: 0 };
    expect(entityLine({ ...entity, itemMentions: 100 }, 0)).toContain('in 100+ items');
    expect(entityLine({ ...entity, itemMentions: 99 }, 0)).toContain('in 99 items');
  });
});
