import { decodeTime } from 'ulidx';
import { ULID_PATTERN, newId } from './ids';

describe('newId', () => {
  it('makes valid, unique ULIDs across many pool refills', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(ids.every((id) => ULID_PATTERN.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries the time it was made, so ids sort by creation', () => {
    const before = Date.now();
    const id = newId();
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
    expect(decodeTime(id)).toBeLessThanOrEqual(Date.now());
  });

  it('spreads its random part over the whole alphabet', () => {
    const chars = new Set(Array.from({ length: 2000 }, () => newId().slice(10)).join(''));
    expect(chars.size).toBe(32);
  });
});
