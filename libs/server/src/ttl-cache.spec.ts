import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('returns a value until its time is up, and not after', () => {
    const cache = new TtlCache<string>(1000, 10);
    cache.set('k', 'v', 0);
    expect(cache.get('k', 999)).toBe('v');
    expect(cache.get('k', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry when full', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 2, 3]);
  });

  it('refreshes an entry that is set again', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('a', 10, 500);
    cache.set('c', 3, 500);
    expect([cache.get('a', 1400), cache.get('b', 600), cache.get('c', 600)]).toEqual([10, undefined, 3]);
  });
});
