import {
  assertApplicable,
  assertRejectable,
  assertRevertible,
  planProposal,
  type ReviewItem,
  type ReviewProposal,
} from './review-rules';

const at = new Date('2026-11-01T00:00:00Z');

function item(id: string, overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id,
    status: 'active',
    title: `Item ${id}`,
    facts: `Facts of ${id}.`,
    rationale: 'Because.',
    impact: null,
    files: [`src/${id}.ts`],
    tags: [],
    evidence_refs: [`e-${id}`],
    evidence_spans: [{ eventId: `e-${id}`, quote: `quote of ${id}` }],
    confidence: 0.6,
    importance: 3,
    merged_from: [],
    superseded_by: null,
    status_changed_at: at,
    ...overrides,
  };
}

const merge: ReviewProposal = {
  id: 'p1',
  kind: 'merge',
  status: 'pending',
  item_ids: ['a', 'b'],
  detail: { keepId: 'a' },
};

describe('assertApplicable / assertRejectable', () => {
  it('takes a pending proposal whose items are all there', () => {
    expect(() => assertApplicable(merge, [item('a'), item('b')])).not.toThrow();
  });

  it.each<[ReviewProposal, ReviewItem[], string]>([
    [{ ...merge, status: 'expired' }, [item('a'), item('b')], 'PROPOSAL_OUTDATED'],
    [{ ...merge, status: 'applied' }, [item('a'), item('b')], 'PROPOSAL_DECIDED'],
    [merge, [item('a')], 'PROPOSAL_OUTDATED'],
  ])('refuses %o', (proposal, items, code) => {
    expect(() => assertApplicable(proposal, items)).toThrow(expect.objectContaining({ code }));
  });

  it('lets an expired proposal be rejected, not a decided one', () => {
    expect(() => assertRejectable({ ...merge, status: 'expired' })).not.toThrow();
    expect(() => assertRejectable({ ...merge, status: 'rejected' })).toThrow(
      expect.objectContaining({ code: 'PROPOSAL_DECIDED' }),
    );
  });
});

describe('planProposal', () => {
  it('keeps the proposal’s pick, gives it the other’s files and evidence, and supersedes the other', () => {
    const steps = planProposal(merge, [item('a'), item('b', { confidence: 0.9 })], {});
    expect(steps).toEqual([
      {
        itemId: 'a',
        change: 'merged',
        set: expect.objectContaining({
          files: ['src/a.ts', 'src/b.ts'],
          evidence_refs: ['e-a', 'e-b'],
          confidence: 0.9,
          merged_from: ['b'],
        }),
      },
      { itemId: 'b', change: 'superseded', set: { status: 'superseded', superseded_by: 'a' } },
    ]);
  });

  it('keeps the operator’s pick instead, and refuses one outside the merge', () => {
    expect(planProposal(merge, [item('a'), item('b')], { keepId: 'b' })[0]!.itemId).toBe('b');
    expect(() => planProposal(merge, [item('a'), item('b')], { keepId: 'z' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it('refuses a merge of an item no longer live', () => {
    expect(() => planProposal(merge, [item('a'), item('b', { status: 'archived' })], {})).toThrow(
      expect.objectContaining({ code: 'PROPOSAL_OUTDATED' }),
    );
  });

  it('needs the operator’s rationale to fix a Decision without one', () => {
    const edit: ReviewProposal = {
      id: 'p2',
      kind: 'edit',
      status: 'pending',
      item_ids: ['a'],
      detail: { problems: [{ code: 'decision-without-rationale' }] },
    };
    const bare = item('a', { rationale: null });
    expect(() => planProposal(edit, [bare], {})).toThrow(expect.objectContaining({ code: 'INPUT_REQUIRED' }));
    expect(planProposal(edit, [bare], { patch: { rationale: 'Cents never round.' } })).toEqual([
      { itemId: 'a', change: 'edited', set: { rationale: 'Cents never round.' } },
    ]);
  });
});

describe('assertRevertible', () => {
  const change = {
    id: 'c1',
    item_id: 'a',
    applied: true,
    reverted_at: null,
    created_at: at,
    after: { status: 'stale' },
  };

  it('takes an applied change whose item still holds what it left', () => {
    expect(assertRevertible(change, item('a', { status: 'stale' })).id).toBe('a');
  });

  it.each([
    ['a dry run’s change', { ...change, applied: false }, item('a', { status: 'stale' }), 'CHANGE_NOT_REVERTIBLE'],
    ['a reverted change', { ...change, reverted_at: at }, item('a', { status: 'stale' }), 'CHANGE_NOT_REVERTIBLE'],
    ['a deleted item', change, undefined, 'ITEM_NOT_FOUND'],
    ['an item changed since', change, item('a', { status: 'active' }), 'ITEM_CHANGED_SINCE'],
    [
      'an item whose status moved away and back',
      change,
      item('a', { status: 'stale', status_changed_at: new Date('2026-11-02T00:00:00Z') }),
      'ITEM_CHANGED_SINCE',
    ],
  ])('refuses %s', (_, c, i, code) => {
    expect(() => assertRevertible(c, i)).toThrow(expect.objectContaining({ code }));
  });
});
