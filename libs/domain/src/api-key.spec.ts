import { API_KEY_PREFIX, generateApiKey, hashApiKey, looksLikeApiKey, secretsEqual } from './api-key';

describe('generateApiKey', () => {
  it('starts with mx_ and looks like an API key', () => {
    const key = generateApiKey();
    expect(API_KEY_PREFIX).toBe('mx_');
    expect(key.startsWith('mx_')).toBe(true);
    expect(key).toHaveLength(3 + 43);
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('is unique across 1,000 generations, every one well-formed', () => {
    const keys = Array.from({ length: 1000 }, () => generateApiKey());
    expect(new Set(keys).size).toBe(1000);
    expect(keys.filter((k) => !looksLikeApiKey(k))).toEqual([]);
  });
});

describe('looksLikeApiKey', () => {
  const body = 'A'.repeat(40) + '_-9';
  it('accepts mx_ and 43 base64url characters', () => expect(looksLikeApiKey('mx_' + body)).toBe(true));
  it.each([
    ['a wrong prefix', 'mk_' + body],
    ['an uppercase prefix', 'MX_' + body],
    ['no prefix', body],
    ['42 characters', 'mx_' + body.slice(1)],
    ['44 characters', 'mx_' + body + 'A'],
    ['standard base64 "+"', 'mx_' + body.slice(1) + '+'],
    ['standard base64 "/"', 'mx_' + body.slice(1) + '/'],
    ['padding "="', 'mx_' + body.slice(1) + '='],
    ['a trailing newline', 'mx_' + body + '\n'],
    ['empty', ''],
  ])('rejects %s', (_label, value) => expect(looksLikeApiKey(value)).toBe(false));
});

describe('hashApiKey', () => {
  it('is SHA-256 as 64 lowercase hex characters', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey(generateApiKey())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(hashApiKey(key));
  });

  it('differs for different keys', () => {
    expect(hashApiKey('mx_a')).not.toBe(hashApiKey('mx_b'));
  });
});

describe('secretsEqual', () => {
  it('is true for equal secrets', () => {
    const key = generateApiKey();
    expect(secretsEqual(key, `${key}`)).toBe(true);
    expect(secretsEqual('', '')).toBe(true);
  });

  it.each([
    ['same length, one character off', 'secret-a', 'secret-b'],
    ['different lengths', 'secret', 'secret-longer'],
    ['a prefix of the other', 'mx_abc', 'mx_ab'],
    ['empty against non-empty', '', 'x'],
    ['different case', 'Secret', 'secret'],
  ])('is false for %s', (_label, a, b) => {
    expect(secretsEqual(a, b)).toBe(false);
    expect(secretsEqual(b, a)).toBe(false);
  });
});
