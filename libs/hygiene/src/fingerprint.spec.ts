import fc from 'fast-check';
import { FINGERPRINT_MAX, fnv1a64, proposalFingerprint } from './fingerprint';
import type { EditProposal, MergeProposal, QualityProblem } from './types';

const merge = (itemIds: string[], keepId = itemIds[0]!): MergeProposal => ({
  kind: 'merge',
  rule: 'near-duplicate',
  itemIds,
  keepId,
  basis: 'similar-text',
  similarity: 0.8,
  reason: 'alike',
});

const edit = (id: string, problems: QualityProblem[]): EditProposal => ({
  kind: 'edit',
  rule: 'quality',
  itemIds: [id],
  problems,
  reason: 'problems',
});

const ulid = (k: number) => `01J${String(k).padStart(23, '0')}`;

describe('proposalFingerprint', () => {
  it('reads as kind, rule, items and problems', () => {
    expect(proposalFingerprint(merge(['b', 'a']))).toBe('merge:near-duplicate:a,b');
    expect(
      proposalFingerprint(
        edit('a', [{ code: 'no-evidence' }, { code: 'too-long', field: 'title', length: 230, limit: 200 }]),
      ),
    ).toBe('edit:quality:a|no-evidence,too-long.title');
  });

  it('does not depend on order, the keeper, the similarity or measured lengths', () => {
    const ids = [ulid(3), ulid(1), ulid(2)];
    expect(proposalFingerprint(merge(ids, ulid(3)))).toBe(
      proposalFingerprint({ ...merge([...ids].reverse(), ulid(1)), similarity: 0.95, basis: 'dedup-topic' }),
    );
    const long = (length: number): QualityProblem => ({ code: 'too-long', field: 'facts', length, limit: 5000 });
    expect(proposalFingerprint(edit('a', [long(6000), { code: 'no-evidence' }]))).toBe(
      proposalFingerprint(edit('a', [{ code: 'no-evidence' }, long(7000)])),
    );
  });

  it('tells different sets apart', () => {
    expect(proposalFingerprint(merge(['a', 'b']))).not.toBe(proposalFingerprint(merge(['a', 'c'])));
    expect(proposalFingerprint(merge(['a', 'b']))).not.toBe(proposalFingerprint(merge(['a', 'b', 'c'])));
    expect(proposalFingerprint(edit('a', [{ code: 'no-evidence' }]))).not.toBe(
      proposalFingerprint(edit('a', [{ code: 'decision-without-rationale' }])),
    );
    expect(proposalFingerprint(edit('a', [{ code: 'no-evidence' }]))).not.toBe(
      proposalFingerprint(edit('b', [{ code: 'no-evidence' }])),
    );
  });

  it('hashes long item lists into a short key, still order-free and distinct', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 2, maxLength: 200, size: 'max' }),
        fc.integer({ min: 0, max: 10_000 }),
        (numbers, extra) => {
          const ids = numbers.map(ulid);
          const fingerprint = proposalFingerprint(merge(ids));
          expect(fingerprint.length).toBeLessThanOrEqual(FINGERPRINT_MAX);
          expect(proposalFingerprint(merge([...ids].reverse()))).toBe(fingerprint);
          if (!numbers.includes(extra)) {
            expect(proposalFingerprint(merge([...ids, ulid(extra)]))).not.toBe(fingerprint);
            expect(proposalFingerprint(merge([...ids.slice(1), ulid(extra)]))).not.toBe(fingerprint);
          }
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
    expect(proposalFingerprint(merge(Array.from({ length: 10 }, (_, k) => ulid(k))))).toMatch(
      /^merge:near-duplicate:10#[0-9a-f]{16}$/,
    );
  });

  it('uses FNV-1a 64', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
});
