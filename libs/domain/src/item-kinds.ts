/**
 * The kinds of items, their statuses, and the session id of a person's items: plain values with
 * no schema, so the dashboard's bundle takes them from here without zod.
 */
export const ITEM_TYPES = [
  'Decision',
  'Convention',
  'BugFix',
  'Todo',
  'ArchitectureNote',
  'ImplementationFact',
  'CodeMapNode',
] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/**
 * The types a person's edit or a model may give an item. CodeMapNode items are made by
 * scanning code, never said in a conversation, and hygiene archives them as memory.
 */
export const AUTHORED_ITEM_TYPES = ITEM_TYPES.filter(
  (type): type is Exclude<ItemType, 'CodeMapNode'> => type !== 'CodeMapNode',
);
/**
 * Where items without files sit in the schema-key tree (`root/<branch>`): a key that names no
 * part of the project, so the brain never shows it as an area of work.
 */
export const TYPE_BRANCH: Record<ItemType, string> = {
  Decision: 'decisions',
  Convention: 'conventions',
  BugFix: 'bugs',
  Todo: 'todos',
  ArchitectureNote: 'architecture',
  ImplementationFact: 'implementation',
  CodeMapNode: 'codemap',
};

export const ITEM_STATUSES = ['active', 'stale', 'review', 'superseded', 'archived'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The session id of items a person wrote through the API rather than enrichment extracted. */
export const MANUAL_SESSION_ID = 'manual';
