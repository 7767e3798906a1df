import { NOW, hygieneItem } from './hygiene-item.fixture';
import { qualityProblems, qualityProposal } from './quality';
import type { HygieneItem } from './types';

const item = (over: Partial<HygieneItem> = {}) =>
  hygieneItem({ id: '01J00000000000000000000001', createdAt: NOW, updatedAt: NOW, statusChangedAt: NOW, ...over });

describe('quality problems', () => {
  it('finds nothing wrong with a sound item', () => {
    expect(qualityProblems(item())).toEqual([]);
    expect(qualityProposal(item())).toBeNull();
  });

  it.each([
    ['title', { title: 'x'.repeat(200) }, { title: 'x'.repeat(201) }, 201, 200],
    ['facts', { factsLength: 5000 }, { factsLength: 5001 }, 5001, 5000],
    ['rationale', { rationaleLength: 2000 }, { rationaleLength: 2001 }, 2001, 2000],
    ['impact', { impactLength: 1000 }, { impactLength: 1001 }, 1001, 1000],
    ['files', { fileCount: 50 }, { fileCount: 51 }, 51, 50],
    ['tags', { tagCount: 5 }, { tagCount: 6 }, 6, 5],
  ] as const)('flags %s only past its limit', (field, atLimit, over, length, limit) => {
    expect(qualityProblems(item(atLimit))).toEqual([]);
    expect(qualityProblems(item(over))).toEqual([{ code: 'too-long', field, length, limit }]);
  });

  it('measures the facts by their true length, not the sample read', () => {
    expect(qualityProblems(item({ facts: 'short sample', factsLength: 6000 }))).toEqual([
      { code: 'too-long', field: 'facts', length: 6000, limit: 5000 },
    ]);
  });

  it('flags a Decision with no rationale, empty or missing', () => {
    expect(qualityProblems(item({ type: 'Decision', rationaleLength: null }))).toEqual([
      { code: 'decision-without-rationale' },
    ]);
    expect(qualityProblems(item({ type: 'Decision', rationaleLength: 0 }))).toEqual([
      { code: 'decision-without-rationale' },
    ]);
    expect(qualityProblems(item({ type: 'Decision', rationaleLength: 1 }))).toEqual([]);
    expect(qualityProblems(item({ type: 'Convention', rationaleLength: null }))).toEqual([]);
  });

  it('flags an extracted item without evidence, not a manual one (a person vouches for it)', () => {
    expect(qualityProblems(item({ evidenceCount: 0 }))).toEqual([{ code: 'no-evidence' }]);
    expect(qualityProblems(item({ evidenceCount: 1 }))).toEqual([]);
    expect(qualityProblems(item({ evidenceCount: 0, manual: true }))).toEqual([]);
  });

  it('lists every problem in one proposal with a readable reason', () => {
    const proposal = qualityProposal(
      item({ type: 'Decision', title: 'x'.repeat(230), fileCount: 60, rationaleLength: null, evidenceCount: 0 }),
    );
    expect(proposal).toEqual({
      kind: 'edit',
      rule: 'quality',
      itemIds: ['01J00000000000000000000001'],
      problems: [
        { code: 'too-long', field: 'title', length: 230, limit: 200 },
        { code: 'too-long', field: 'files', length: 60, limit: 50 },
        { code: 'decision-without-rationale' },
        { code: 'no-evidence' },
      ],
      reason:
        'Title is 230 characters long (limit 200); 60 files (limit 50); a Decision with no rationale; no evidence',
    });
  });
});
