import fc from 'fast-check';
import { lexicalWords, localEmbedding, stem } from './local-embedder';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

describe('localEmbedding', () => {
  it('is deterministic, unit length and of the dimensions asked for', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 300, size: 'max' }),
        fc.integer({ min: 1, max: 512 }),
        (text, dims) => {
          const a = localEmbedding(text, dims);
          expect(a.length).toBe(dims);
          expect(localEmbedding(text, dims)).toEqual(a);
          const n = norm(a);
          if (/[\p{L}\p{N}]/u.test(text)) expect(n).toBeCloseTo(1, 5);
          else expect(n).toBe(0);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('never cancels a text with words out to the zero vector, even in few dimensions', () => {
    // Found by the property above: its signed features summed to exactly zero in 2 dimensions.
    expect(norm(localEmbedding('Axca,prop', 2))).toBeCloseTo(1, 5);
  });

  it('gives the zero vector, not NaN, for a text without words', () => {
    for (const text of ['', '   ', '!?-_ …']) {
      const v = localEmbedding(text, 64);
      expect(Array.from(v).every((x) => x === 0)).toBe(true);
    }
  });

  it('rejects dimensions that are not a positive integer', () => {
    expect(() => localEmbedding('x', 0)).toThrow(RangeError);
    expect(() => localEmbedding('x', 1.5)).toThrow(RangeError);
  });

  it('scores related texts above unrelated ones', () => {
    const e = (text: string) => localEmbedding(text, 256);
    const query = e('retry the webhook sender');
    const related = cosine(query, e('webhook sender retries'));
    const unrelated = cosine(query, e('postgres migration adds an index on projects'));
    expect(related).toBeGreaterThan(0.7);
    // Stems meet: without stemming these share only trigrams and score about 0.25.
    expect(cosine(e('webhooks retried'), e('webhook retry'))).toBeGreaterThan(0.8);
    expect(related).toBeGreaterThan(unrelated + 0.3);
    expect(cosine(e('getUserById'), e('get_user_by_id'))).toBeGreaterThan(0.9);
    expect(cosine(e('the webhook'), e('THE WEBHOOK'))).toBeCloseTo(1, 6);
  });

  it('normalizes compatibility forms', () => {
    // Fullwidth letters and the "fi" ligature are the same word after NFKC.
    expect(cosine(localEmbedding('ｗｅｂｈｏｏｋ ﬁle', 128), localEmbedding('webhook file', 128))).toBeCloseTo(1, 6);
  });
});

describe('lexicalWords', () => {
  it('splits identifiers into words and keeps each compound whole', () => {
    expect(lexicalWords('parseHTTPServer snake_case kebab-case plain')).toEqual({
      words: ['parse', 'http', 'server', 'snake', 'case', 'kebab', 'case', 'plain'],
      compounds: ['parsehttpserver', 'snakecase', 'kebabcase'],
    });
  });
});

describe('stem', () => {
  it('strips common inflections but leaves short words and non-inflections', () => {
    expect(['retries', 'retried', 'retry'].map(stem)).toEqual(['retry', 'retry', 'retry']);
    expect(['sending', 'stopped', 'fixed', 'webhooks', 'boxes', 'classes', 'quickly'].map(stem)).toEqual([
      'send',
      'stop',
      'fix',
      'webhook',
      'box',
      'class',
      'quick',
    ]);
    expect(['string', 'used', 'status', 'apply', 'need', 'is'].map(stem)).toEqual([
      'string',
      'used',
      'status',
      'apply',
      'need',
      'is',
    ]);
  });
});
