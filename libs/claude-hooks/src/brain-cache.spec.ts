import { readCachedBrain, settleBrain, staleBrainNote, type CachedBrain } from './brain-cache';

const cached: CachedBrain = {
  etag: '"3f9a-md"',
  tokenBudget: 2000,
  document: '# Project brain: shop-api\n\n- Discounts are clamped',
  checkedAt: '2026-11-25T09:30:12.000Z',
};
const now = new Date('2026-11-26T10:00:00.000Z');

describe('readCachedBrain', () => {
  it('reads back what was written for the same budget', () => {
    expect(readCachedBrain(JSON.stringify(cached), 2000)).toEqual(cached);
  });

  it('ignores a missing, torn or edited file, and a brain of another budget', () => {
    const text = JSON.stringify(cached);
    for (const bad of [
      undefined,
      '',
      text.slice(0, text.length / 2),
      'null',
      '[]',
      JSON.stringify({ ...cached, etag: '' }),
      JSON.stringify({ ...cached, etag: 7 }),
      JSON.stringify({ ...cached, document: '' }),
      JSON.stringify({ ...cached, document: ['# Project brain'] }),
      JSON.stringify({ ...cached, checkedAt: 'yesterday' }),
      JSON.stringify({ ...cached, tokenBudget: '2000' }),
    ]) {
      expect(readCachedBrain(bad, 2000)).toBeUndefined();
    }
    expect(readCachedBrain(text, 2500)).toBeUndefined();
  });
});

describe('settleBrain', () => {
  it('prints a brain the server sent and keeps it with its ETag', () => {
    expect(settleBrain({ kind: 'sent', document: '# New', etag: '"9-md"' }, cached, 2000, now)).toEqual({
      document: '# New',
      save: { etag: '"9-md"', tokenBudget: 2000, document: '# New', checkedAt: '2026-11-26T10:00:00.000Z' },
    });
  });

  it('prints but does not keep a brain sent without an ETag', () => {
    expect(settleBrain({ kind: 'sent', document: '# New' }, cached, 2000, now)).toEqual({ document: '# New' });
  });

  it('prints the cached brain on a 304, as current now', () => {
    expect(settleBrain({ kind: 'not-modified' }, cached, 2000, now)).toEqual({
      document: cached.document,
      save: { ...cached, checkedAt: '2026-11-26T10:00:00.000Z' },
    });
    expect(settleBrain({ kind: 'not-modified' }, undefined, 2000, now)).toEqual({
      problem: 'Memex answered 304 for a brain this machine has not cached',
    });
  });

  it.each([
    { reason: 'timeout' as const },
    { reason: 'unreachable' as const },
    { reason: 'status' as const, status: 503 },
  ])('prints the cached brain, said to be stale, when the server is away ($reason $status)', (failure) => {
    const settled = settleBrain({ kind: 'failed', ...failure, problem: 'Memex did not answer' }, cached, 2000, now);
    expect(settled).toEqual({
      document: cached.document,
      staleSince: cached.checkedAt,
      problem: 'Memex did not answer; printed the brain cached on 2026-11-25T09:30:12.000Z',
    });
    expect(settled.save).toBeUndefined();
  });

  it('prints nothing when the server refused the request, or nothing is cached', () => {
    const refused = { kind: 'failed' as const, reason: 'status' as const, status: 401, problem: 'invalid API key' };
    expect(settleBrain(refused, cached, 2000, now)).toEqual({ problem: 'invalid API key' });
    const away = { kind: 'failed' as const, reason: 'timeout' as const, problem: 'Memex did not answer' };
    expect(settleBrain(away, undefined, 2000, now)).toEqual({ problem: 'Memex did not answer' });
  });
});

describe('staleBrainNote', () => {
  it('tells the assistant the brain may be behind, and when it was current', () => {
    expect(staleBrainNote(cached.checkedAt)).toBe(
      'Memex is not answering right now (its memex tools may fail): this is the brain as it was on 2026-11-25 09:30 UTC.',
    );
  });
});
