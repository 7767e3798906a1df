import type { ItemStatus } from './memory-item';
import { STATUS_TRANSITIONS, transition } from './status-lifecycle';

const STATUSES: ItemStatus[] = ['active', 'stale', 'review', 'superseded', 'archived'];

/** spec/memory-items.md's state diagram, plus active → archived and archived → active (restore). Written out so a table change fails here. */
const LEGAL: ReadonlyArray<[ItemStatus, ItemStatus]> = [
  ['active', 'stale'],
  ['active', 'superseded'],
  ['active', 'review'],
  ['active', 'archived'],
  ['stale', 'active'],
  ['stale', 'archived'],
  ['stale', 'superseded'],
  ['superseded', 'archived'],
  ['review', 'active'],
  ['review', 'archived'],
  ['archived', 'active'],
];

const isLegal = (from: ItemStatus, to: ItemStatus) => LEGAL.some(([f, t]) => f === from && t === to);
const legalTargets = (from: ItemStatus) => LEGAL.filter(([f]) => f === from).map(([, t]) => t);

const ALL_PAIRS = STATUSES.flatMap((from) => STATUSES.map((to): [ItemStatus, ItemStatus] => [from, to]));
const ILLEGAL = ALL_PAIRS.filter(([from, to]) => !isLegal(from, to));

describe('transition', () => {
  it('covers all 25 pairs: 11 legal, 14 illegal', () => {
    expect(ALL_PAIRS).toHaveLength(25);
    expect(LEGAL).toHaveLength(11);
    expect(ILLEGAL).toHaveLength(14);
  });

  it.each(LEGAL)('allows %s → %s', (from, to) => {
    expect(transition(from, to)).toEqual({ ok: true, from, to });
  });

  it.each(ILLEGAL)('rejects %s → %s and lists the allowed moves', (from, to) => {
    const result = transition(from, to);
    expect(result.ok).toBe(false);
    expect(result.from).toBe(from);
    expect(result.to).toBe(to);
    if (result.ok) return;
    expect([...result.allowed].sort()).toEqual(legalTargets(from).sort());
    expect(result.allowed).not.toContain(to);
  });

  it.each(STATUSES)('rejects staying in %s', (status) => {
    expect(transition(status, status).ok).toBe(false);
  });

  it('lets archived go back to active only', () => {
    for (const to of STATUSES.filter((s) => s !== 'active'))
      expect(transition('archived', to)).toEqual({ ok: false, from: 'archived', to, allowed: ['active'] });
  });

  it('has a table entry for every status and no other', () => {
    expect(Object.keys(STATUS_TRANSITIONS).sort()).toEqual([...STATUSES].sort());
  });
});
