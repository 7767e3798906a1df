import fc from 'fast-check';
import type { ItemType } from '@memex/domain';
import { candidateItemSchema } from './candidate';
import { planWindow, type StoredItem, type VerifiedItem } from './window-plan';

const DB = 'All database access goes through Kysely.';

function said(
  facts: string,
  { hint = 'decision:db:db', type = 'Decision' as ItemType, salience = 0.5, event = 'e1', files = [] as string[] } = {},
): VerifiedItem {
  const quote = `${facts} (${event})`;
  return {
    candidate: candidateItemSchema.parse({
      type,
      title: 'Database access',
      facts,
      files,
      schemaKey: 'root/db',
      dedupHint: hint,
      importance: 3,
      confidence: 0.6,
      salience,
      evidence: [{ eventId: event, quote }],
    }),
    spans: [{ eventId: event, quote }],
  };
}

function stored(id: string, facts = DB, type: ItemType = 'Decision'): StoredItem {
  return { id, type, status: 'active', facts, confidence: 0.6 };
}

/** The plan for a window's items in a session that holds nothing yet, under a cap it does not reach. */
const planOf = (items: VerifiedItem[], live = new Map<string, StoredItem>()) =>
  planWindow({ items, live, held: [], cap: 15 });

/** The one step of the plan that replaces the stored decision `old` with what the window says. */
function replacementOf(items: VerifiedItem[]) {
  const plan = planOf(items, new Map([['decision:db:db', stored('old')]]));
  expect(plan.steps).toHaveLength(1);
  expect(plan.steps[0]).toMatchObject({ action: 'supersede', target: 'old' });
  return plan.steps[0]!;
}

describe('planWindow: one write per dedup hint', () => {
  it('makes one item of two sayings of something new, with the evidence of both', () => {
    const plan = planOf([said(DB, { event: 'e1', files: ['a.ts'] }), said(DB, { event: 'e2', files: ['b.ts'] })]);
    expect(plan.steps).toHaveLength(1);
    const step = plan.steps[0]!;
    expect(step.action).toBe('create');
    expect(step.item.spans.map((s) => s.eventId)).toEqual(['e1', 'e2']);
    expect(step.item.candidate.files).toEqual(['a.ts', 'b.ts']);
    expect(step.item.candidate.confidence).toBe(0.7);
  });

  it('keeps only the last word when a new decision changes within the window', () => {
    const plan = planOf([said(DB, { event: 'e1' }), said('All database access goes through Prisma.', { event: 'e2' })]);
    expect(plan.steps).toEqual([
      { action: 'create', item: said('All database access goes through Prisma.', { event: 'e2' }) },
    ]);
  });

  it('replaces a stored decision once, with the last word, when the window first repeats then changes it', () => {
    const changed = 'All database access goes through Prisma.';
    const step = replacementOf([said(DB, { event: 'e1' }), said(changed, { event: 'e2' })]);
    expect(step.item.candidate.facts).toBe(changed);
  });

  it('replaces a stored decision once when the window changes it and then says the change again', () => {
    const changed = 'All database access goes through Prisma.';
    const step = replacementOf([said(changed, { event: 'e1' }), said(changed, { event: 'e2' })]);
    expect(step.item.spans.map((s) => s.eventId)).toEqual(['e1', 'e2']);
  });

  it('reinforces a stored item once for two sayings, raising confidence for each', () => {
    const plan = planOf(
      [said(DB, { event: 'e1' }), said(DB, { event: 'e2' })],
      new Map([['decision:db:db', stored('old')]]),
    );
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({ action: 'reinforce', target: 'old', confidence: 0.775 });
  });

  it('writes each hint at most once and never more items than candidates, whatever the window says', () => {
    const hints = ['decision:db:a', 'decision:db:b', 'decision:db:c'];
    const saying = fc.record({
      hint: fc.constantFrom(...hints),
      facts: fc.constantFrom(DB, 'All database access goes through Prisma.'),
      salience: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(saying, { maxLength: 12 }),
        fc.subarray(hints),
        fc.integer({ min: 0, max: 4 }),
        (items, storedHints, cap) => {
          const plan = planWindow({
            items: items.map((i, n) => said(i.facts, { hint: i.hint, salience: i.salience, event: `e${n}` })),
            live: new Map(storedHints.map((h) => [h, stored(`id-${h}`)])),
            held: [],
            cap,
          });
          const written = plan.steps.map((s) => s.item.candidate.dedupHint);
          expect(new Set(written).size).toBe(written.length);
          const targets = plan.steps.flatMap((s) => (s.action === 'create' ? [] : [s.target]));
          expect(new Set(targets).size).toBe(targets.length);
          expect(plan.steps.length).toBeLessThanOrEqual(items.length);
        },
      ),
    );
  });
});

describe('planWindow: the session cap', () => {
  const held = [
    { id: 'weak', salience: 0.1 },
    { id: 'strong', salience: 0.9 },
  ];

  /** The plan, with room for two, for a window whose items meet the stored item `id` (hint `decision:db:<id>`). */
  const planBeside = (id: string, items: VerifiedItem[]) =>
    planWindow({ items, live: new Map([[`decision:db:${id}`, stored(id)]]), held, cap: 2 });

  it('never displaces an item the window reinforces, and counts it in the session’s room', () => {
    const plan = planBeside('weak', [
      said(DB, { hint: 'decision:db:weak' }),
      said('Something new.', { hint: 'decision:db:new', salience: 0.5 }),
    ]);
    expect(plan.displaced).toEqual([]);
    expect(plan.capped).toBe(1);
    expect(plan.steps).toEqual([expect.objectContaining({ action: 'reinforce', target: 'weak' })]);
  });

  it('lets a replacement of the session’s own item take its room', () => {
    const plan = planBeside('weak', [
      said('All database access goes through Prisma.', { hint: 'decision:db:weak', salience: 0.05 }),
    ]);
    expect(plan).toMatchObject({ displaced: [], capped: 0, steps: [{ action: 'supersede', target: 'weak' }] });
  });

  it('counts a replacement of another session’s item against this session', () => {
    const plan = planBeside('elsewhere', [
      said('All database access goes through Prisma.', { hint: 'decision:db:elsewhere', salience: 0.05 }),
    ]);
    expect(plan.steps).toEqual([expect.objectContaining({ action: 'supersede', target: 'elsewhere' })]);
    expect(plan.displaced).toEqual(['weak']);
  });

  it('keeps everything with a cap of 0', () => {
    const plan = planWindow({
      items: [said(DB, { hint: 'decision:db:x', salience: 0 }), said(DB, { hint: 'decision:db:y', salience: 0 })],
      live: new Map(),
      held,
      cap: 0,
    });
    expect(plan).toMatchObject({ capped: 0, displaced: [] });
    expect(plan.steps).toHaveLength(2);
  });
});
