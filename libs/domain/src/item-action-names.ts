/**
 * The actions a person takes on an item, by name: a file of its own, imported by the API's
 * schemas (item-api) and by the rules that carry them out (item-actions) without either
 * importing the other.
 */
export const ITEM_ACTIONS = ['approve', 'deprecate', 'archive', 'restore', 'resolve', 'reopen'] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];
