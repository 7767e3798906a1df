import { DomainError } from './domain-error';
import { applyAction } from './item-actions';
import { ITEM_STATUSES, type ItemStatus, type ItemType } from './memory-item';

const NOW = new Date('2026-11-21T12:00:00Z');
const item = (status: ItemStatus, type: ItemType = 'Decision', resolvedAt: Date | null = null) => ({
  status,
  type,
  resolvedAt,
});

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('applyAction', () => {
  it.each(ITEM_STATUSES.map((s) => [s]))('approve from %s: review or stale → active', (status) => {
    if (status === 'review' || status === 'stale')
      expect(applyAction(item(status), 'approve', NOW)).toEqual({ status: 'active' });
    else expect(refusal(() => applyAction(item(status), 'approve', NOW)).status).toBe(409);
  });

  it.each(ITEM_STATUSES.flatMap((s) => [[s, 'deprecate'] as const, [s, 'archive'] as const]))(
    '%s, %s: to archived unless already archived',
    (status, action) => {
      if (status === 'archived') {
        const error = refusal(() => applyAction(item(status), action, NOW));
        expect(error.details).toEqual({ from: 'archived', to: 'archived', allowed: ['active'] });
      } else {
        expect(applyAction(item(status), action, NOW)).toEqual({ status: 'archived' });
      }
    },
  );

  it.each(ITEM_STATUSES.map((s) => [s]))('restore from %s: archived → active only, clearing supersededBy', (status) => {
    if (status === 'archived') {
      expect(applyAction(item(status), 'restore', NOW)).toEqual({ status: 'active', supersededBy: null });
    } else {
      const error = refusal(() => applyAction(item(status), 'restore', NOW));
      expect(error).toMatchObject({ status: 409, details: { from: status, to: 'active', allowedFrom: ['archived'] } });
    }
  });

  it('does not approve an archived item, though the lifecycle lets it go back to active: that is a restore', () => {
    expect(refusal(() => applyAction(item('archived'), 'approve', NOW)).details).toEqual({
      from: 'archived',
      to: 'active',
      allowed: ['active'],
      allowedFrom: ['review', 'stale'],
    });
  });

  it('names the allowed moves when refusing', () => {
    const error = refusal(() => applyAction(item('active'), 'approve', NOW));
    expect(error).toMatchObject({
      code: 'ILLEGAL_STATUS_TRANSITION',
      details: { from: 'active', allowed: ['stale', 'superseded', 'review', 'archived'] },
    });
  });

  it.each([['BugFix'], ['Todo']] as const)('resolves and reopens a %s', (type) => {
    expect(applyAction(item('active', type), 'resolve', NOW)).toEqual({ resolvedAt: NOW });
    expect(applyAction(item('active', type, NOW), 'reopen', NOW)).toEqual({ resolvedAt: null });
    expect(refusal(() => applyAction(item('active', type, NOW), 'resolve', NOW)).details).toEqual({
      allowed: ['reopen'],
    });
    expect(refusal(() => applyAction(item('active', type), 'reopen', NOW)).details).toEqual({ allowed: ['resolve'] });
  });

  it.each([['Decision'], ['Convention'], ['ArchitectureNote'], ['ImplementationFact'], ['CodeMapNode']] as const)(
    'refuses to resolve a %s',
    (type) => {
      expect(refusal(() => applyAction(item('active', type), 'resolve', NOW)).status).toBe(409);
    },
  );
});
