import { TermCounts } from './term-counts';

describe('TermCounts', () => {
  it('keeps what was counted at a revision, adds to it at the same one, and starts again at another', () => {
    const counts = new TermCounts();
    const all = 'fix the error in map';
    expect(counts.known('p', all)).toEqual({ revision: -1, terms: [], counts: [] });
    counts.learn('p', 3, ["'fix'", "'error'"], [200, 41]);
    counts.learn('p', 3, ["'map'"], [7]);
    expect(counts.known('p', all)).toEqual({ revision: 3, terms: ["'fix'", "'error'", "'map'"], counts: [200, 41, 7] });
    counts.learn('p', 4, ["'fix'"], [199]);
    expect(counts.known('p', all)).toEqual({ revision: 4, terms: ["'fix'"], counts: [199] });
    expect(counts.known('other', all)).toEqual({ revision: -1, terms: [], counts: [] });
  });

  it('offers only the terms whose lexemes the query holds, phrases and quotes included', () => {
    const counts = new TermCounts();
    counts.learn('p', 1, ["'webhook' <-> 'sender'", "'retri'", "'o''brien'", "'cach'"], [3, 5, 1, 9]);
    expect(counts.known('p', "Webhook sender retries for O'Brien").terms).toEqual([
      "'webhook' <-> 'sender'",
      "'retri'",
      "'o''brien'",
    ]);
  });

  it('drops the least recently used scope past 64', () => {
    const counts = new TermCounts();
    for (let i = 0; i < 64; i += 1) counts.learn(`p${i}`, 1, ["'x'"], [i]);
    counts.known('p0', 'x');
    counts.learn('p64', 1, ["'x'"], [64]);
    expect(counts.known('p0', 'x').revision).toBe(1);
    expect(counts.known('p1', 'x').revision).toBe(-1);
    expect(counts.known('p64', 'x').counts).toEqual([64]);
  });
});
