import { DomainError } from './domain-error';
import type { ItemAction } from './item-action-names';
import type { ItemEdit } from './item-api';
import type { ItemStatus, ItemType, MemoryItem } from './memory-item';
import { STATUS_TRANSITIONS, transition } from './status-lifecycle';

export { ITEM_ACTIONS, type ItemAction } from './item-action-names';

export interface ItemChange {
  status?: ItemStatus;
  resolvedAt?: Date | null;
  /** Cleared by a restore: the item stands again on its own, whatever replaced it. */
  supersededBy?: null;
}

/**
 * The statuses each status move of an action starts from, where the lifecycle allows more:
 * approving confirms an item under review or stale, restoring takes one out of the archive;
 * neither is the other (an archived item is restored, not approved).
 */
const ACTION_FROM: Partial<Record<ItemAction, readonly ItemStatus[]>> = {
  approve: ['review', 'stale'],
  restore: ['archived'],
};

const RESOLVABLE: ReadonlySet<ItemType> = new Set(['BugFix', 'Todo']);

/**
 * What an action does to an item, or a 409 naming what is allowed instead.
 * approve: review → active (and stale → active: a person re-affirming it). deprecate
 * (no longer true) and archive (no longer worth showing): → archived (ARCHITECTURE.md); the
 * history tells them apart. restore: archived → active, clearing `supersededBy`.
 * resolve / reopen: set or clear `resolvedAt` of a BugFix or Todo.
 */
export function applyAction(
  item: Pick<MemoryItem, 'status' | 'type' | 'resolvedAt'>,
  action: ItemAction,
  now: Date,
): ItemChange {
  const move = (to: ItemStatus): ItemChange => {
    const result = transition(item.status, to);
    const from = ACTION_FROM[action];
    if (!result.ok || (from && !from.includes(item.status))) {
      throw new DomainError('ILLEGAL_STATUS_TRANSITION', `cannot ${action} an item that is ${item.status}`, {
        from: item.status,
        to,
        allowed: STATUS_TRANSITIONS[item.status],
        ...(from ? { allowedFrom: from } : {}),
      });
    }
    return { status: to };
  };
  switch (action) {
    case 'approve':
      return move('active');
    case 'restore':
      return { ...move('active'), supersededBy: null };
    case 'deprecate':
    case 'archive':
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

/** Everything a person's change may set on an item: its words and its status. */
export type ItemUpdate = ItemEdit & ItemChange;

/**
 * What a PATCH does to an item: its edits, and its action judged on the item as the same
 * request leaves it (a type change included).
 */
export function patchedItem(
  current: Pick<MemoryItem, 'status' | 'type' | 'resolvedAt'>,
  patch: ItemEdit & { action?: ItemAction; reason?: string },
  now: Date,
): ItemUpdate {
  const { action, reason: _reason, ...edits } = patch;
  const moved = action ? applyAction({ ...current, type: patch.type ?? current.type }, action, now) : {};
  return { ...edits, ...moved };
}

/** What a bulk action does to one item; a refusal names the item, since a bulk request holds many. */
export function bulkAction(
  current: Pick<MemoryItem, 'itemId' | 'status' | 'type' | 'resolvedAt'>,
  action: ItemAction,
  now: Date,
): ItemUpdate {
  try {
    return applyAction(current, action, now);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError(error.code, `${current.itemId}: ${error.message}`, { ...error.details, id: current.itemId });
  }
}
