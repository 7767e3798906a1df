import { EDITED_WITH_CAP, coOccurrences, editedTogether } from './relations';
import { salience } from './salience';

describe('relations', () => {
  it('pairs files edited in one session once each, in a stable order', () => {
    const pairs = editedTogether(['b.ts', 'b.ts'], ['a.ts', 'b.ts', 'c.ts']);
    expect(pairs.map((p) => `${p.source.name}-${p.target.name}`).sort()).toEqual(['a.ts-b.ts', 'b.ts-c.ts']);
    expect(pairs.every((p) => p.kind === 'edited_with')).toBe(true);
  });

  it('pairs a file with the files the session edited most recently only, however many it edited', () => {
    const earlier = Array.from({ length: 1000 }, (_, i) => `src/f${String(i).padStart(4, '0')}.ts`);
    const pairs = editedTogether(['src/new.ts'], earlier);
    expect(pairs).toHaveLength(EDITED_WITH_CAP);
    const partners = pairs.map((p) => (p.source.name === 'src/new.ts' ? p.target.name : p.source.name));
    expect(partners).toContain('src/f0999.ts');
    expect(partners).not.toContain('src/f0000.ts');
  });

  it('pairs entities named by the same event', () => {
    const rels = coOccurrences([
      [
        { kind: 'symbol', name: 'foo', eventId: 'e' },
        { kind: 'file', name: 'a.ts', eventId: 'e' },
      ],
      [{ kind: 'file', name: 'lonely.ts', eventId: 'f' }],
    ]);
    expect(rels).toEqual([
      {
        kind: 'co_occurs',
        source: { kind: 'file', name: 'a.ts', eventId: 'e' },
        target: { kind: 'symbol', name: 'foo', eventId: 'e' },
      },
    ]);
  });
});

describe('salience', () => {
  const now = Date.UTC(2026, 0, 31);
  const day = 86_400_000;
  it('grows with mentions, more for items, and fades with age but not to nothing', () => {
    const once = salience({ mentions: 1, itemMentions: 0, lastSeenAt: now }, now);
    const often = salience({ mentions: 10, itemMentions: 0, lastSeenAt: now }, now);
    const kept = salience({ mentions: 1, itemMentions: 1, lastSeenAt: now }, now);
    const old = salience({ mentions: 10, itemMentions: 0, lastSeenAt: now - 60 * day }, now);
    expect(often).toBeGreaterThan(kept);
    expect(kept).toBeGreaterThan(once);
    expect(old).toBeLessThan(often);
    expect(old).toBeGreaterThan(often / 3 - 0.001);
    expect(salience({ mentions: 0, itemMentions: 0, lastSeenAt: now }, now)).toBe(0);
    expect(often).toBeLessThanOrEqual(1);
  });
});
