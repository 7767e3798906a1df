import { hasUnstorableChars, isIsoInstant, jsonShape, utf8Bytes } from './text-guards';

describe('isIsoInstant', () => {
  it.each([
    '2026-11-21T09:30:00Z',
    '2026-11-21T09:30:00.1Z',
    '2026-11-21T09:30:00.123+02:00',
    '2026-11-21T09:30:00.123456789Z',
    '2026-11-21T09:30:00-00:00',
    '2026-11-21T09:30:00+14:00',
    '2026-11-21T09:30:00-12:00',
    '2026-11-21T23:59:59Z',
    '2026-11-21T00:00:00Z',
    '2024-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2026-01-31T00:00:00Z',
    '2026-04-30T00:00:00Z',
    '2026-12-31T00:00:00Z',
    '1970-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
  ])('accepts %s', (value) => {
    expect(isIsoInstant(value)).toBe(true);
  });

  it.each([
    ['Feb 29 in a non-leap year', '2023-02-29T00:00:00Z'],
    ['Feb 29 in a non-leap century year', '2100-02-29T00:00:00Z'],
    ['Feb 30', '2024-02-30T00:00:00Z'],
    ['Apr 31', '2026-04-31T00:00:00Z'],
    ['day 0', '2026-11-00T00:00:00Z'],
    ['Jan 32', '2026-01-32T00:00:00Z'],
    ['month 0', '2026-00-01T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['hour 24', '2026-11-21T24:00:00Z'],
    ['minute 60', '2026-11-21T09:60:00Z'],
    ['second 60 (leap second)', '2026-11-21T09:30:60Z'],
    ['offset hour 15', '2026-11-21T09:30:00+15:00'],
    ['offset minute 60', '2026-11-21T09:30:00+01:60'],
    ['offset without colon', '2026-11-21T09:30:00+0200'],
    ['offset hours only', '2026-11-21T09:30:00+02'],
    ['no zone', '2026-11-21T09:30:00'],
    ['lowercase z', '2026-11-21T09:30:00z'],
    ['lowercase t', '2026-11-21t09:30:00Z'],
    ['a space instead of T', '2026-11-21 09:30:00Z'],
    ['no seconds', '2026-11-21T09:30Z'],
    ['an empty fraction', '2026-11-21T09:30:00.Z'],
    ['10 fraction digits', '2026-11-21T09:30:00.1234567890Z'],
    ['a comma fraction', '2026-11-21T09:30:00,123Z'],
    ['single-digit month', '2026-1-21T09:30:00Z'],
    ['a year before 1970', '1969-12-31T23:59:59Z'],
    ['a five-digit year', '10000-01-01T00:00:00Z'],
    ['leading whitespace', ' 2026-11-21T09:30:00Z'],
    ['trailing newline', '2026-11-21T09:30:00Z\n'],
    ['a date only', '2026-11-21'],
    ['empty', ''],
  ])('rejects %s', (_label, value) => {
    expect(isIsoInstant(value)).toBe(false);
  });
});

describe('hasUnstorableChars', () => {
  it('finds U+0000 anywhere', () => {
    expect(hasUnstorableChars('\u0000')).toBe(true);
    expect(hasUnstorableChars('abc\u0000')).toBe(true);
  });

  it('ignores other control characters and the text "\\0"', () => {
    expect(hasUnstorableChars('a\u0001\tb\n')).toBe(false);
    expect(hasUnstorableChars('\\0 \\u0000')).toBe(false);
    expect(hasUnstorableChars('')).toBe(false);
  });
});

describe('utf8Bytes', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['aé€😀', 10],
  ])('counts %j as %i bytes', (value, bytes) => {
    expect(utf8Bytes(value)).toBe(bytes);
  });
});

describe('jsonShape', () => {
  it.each([
    ['a string', 'x', 1],
    ['null', null, 1],
    ['a number', 3, 1],
    ['an empty object', {}, 1],
    ['an empty array', [], 1],
    ['an object with a leaf', { a: 1 }, 2],
    ['an array of arrays', [[1], [[2]]], 4],
    ['mixed nesting', { a: [{ b: 'x' }] }, 4],
  ])('gives %s depth %i', (_label, value, depth) => {
    expect(jsonShape(value).depth).toBe(depth);
  });

  it('reports the deepest branch, not the last', () => {
    expect(jsonShape({ deep: { a: { b: {} } }, shallow: 1 }).depth).toBe(4);
    expect(jsonShape({ shallow: 1, deep: { a: { b: {} } } }).depth).toBe(4);
  });

  it('finds NUL in a nested value or key', () => {
    expect(jsonShape({ a: [{ b: 'x\u0000' }] }).hasUnstorableChars).toBe(true);
    expect(jsonShape({ a: { 'k\u0000': 1 } }).hasUnstorableChars).toBe(true);
    expect(jsonShape({ a: [{ b: 'x' }], c: 'd' }).hasUnstorableChars).toBe(false);
  });

  it('walks a 100,000-deep array without overflowing the stack', () => {
    let value: unknown = [];
    for (let i = 1; i < 100_000; i++) value = [value];
    let shape: ReturnType<typeof jsonShape> | undefined;
    expect(() => {
      shape = jsonShape(value);
    }).not.toThrow();
    expect(shape).toEqual({ depth: 100_000, hasUnstorableChars: false });
  });

  it('walks a 100,000-deep object without overflowing the stack', () => {
    let value: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) value = { k: value };
    expect(jsonShape(value)).toEqual({ depth: 100_001, hasUnstorableChars: true });
  });
});
