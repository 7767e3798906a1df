import { DomainError } from './domain-error';
import type { ItemStatus, ItemType, MemoryItem } from './memory-item';
import { STATUS_TRANSITIONS, transition } from './status-lifecycle';

export const ITEM_ACTIONS = ['approve', 'deprecate', 'resolve', 'reopen'] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];

export interface ItemChange {
  status?: ItemStatus;
  resolvedAt?: Date | null;
}

const RESOLVABLE: ReadonlySet<ItemType> = new Set(['BugFix', 'Todo']);

/**
 * What an action does to an item, or a 409 naming what is allowed instead.
 * approve: review → active (and stale → active: a person re-affirming it). deprecate: →
 * archived (ARCHITECTURE.md). resolve / reopen: set or
 * clear `resolvedAt` of a BugFix or Todo.
 */
export function applyAction(
  item: Pick<MemoryItem, 'status' | 'type' | 'resolvedAt'>,
  action: ItemAction,
  now: Date,
): ItemChange {
  const move = (to: ItemStatus): ItemChange => {
    const result = transition(item.status, to);
    if (!result.ok) {
      throw new DomainError('ILLEGAL_STATUS_TRANSITION', `cannot ${action} an item that is ${item.status}`, {
        from: item.status,
        to,
        allowed: STATUS_TRANSITIONS[item.status],
      });
    }
    return { status: to };
  };
  switch (action) {
    case 'approve':
      return move('active');
    case 'deprecate':
      return move('archived');
    case 'resolve':
    case 'reopen': {
      if (!RESOLVABLE.has(item.type)) {
        throw new DomainError('ILLEGAL_STATUS_TRANSITION', `only BugFix and Todo items can be ${action}d`, {
          type: item.type,
        });
      }
      const resolved = item.resolvedAt !== null;
      if (action === 'resolve' && resolved) {
        throw new DomainError('ILLEGAL_STATUS_TRANSITION', 'the item is already resolved', { allowed: ['reopen'] });
      }
      if (action === 'reopen' && !resolved) {
        throw new DomainError('ILLEGAL_STATUS_TRANSITION', 'the item is not resolved', { allowed: ['resolve'] });
      }
      return { resolvedAt: action === 'resolve' ? now : null };
    }
  }
}
