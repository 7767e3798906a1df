import { newId } from './ids';
import { patchItemBodySchema } from './item-api';
import { AUTHORED_ITEM_TYPES, ITEM_STATUSES, ITEM_TYPES, dedupGroup, memoryItemSchema } from './memory-item';

type Item = Record<string, unknown>;

/** One item that satisfies every constraint; each test varies a single field. */
function validItem(overrides: Item = {}): Item {
  const now = new Date('2026-11-21T09:30:00Z');
  return {
    itemId: newId(),
    projectId: newId(),
    type: 'Decision',
    title: 'Use Kysely for database access',
    facts: 'Queries are written with Kysely; raw SQL only in migrations.',
    rationale: 'Typed queries without an ORM.',
    impact: 'All repositories.',
    files: ['libs/db/src/index.ts'],
    schemaKey: 'root/backend/db',
    commitRange: 'abcdef1..1234567',
    confidence: 0.9,
    status: 'active',
    evidenceRefs: ['evt-1'],
    evidenceSpans: [{ eventId: 'evt-1', quote: 'we will use Kysely' }],
    dedupHint: 'decision:database:chose-kysely',
    tags: ['db', 'query-builder'],
    importance: 4,
    salience: 0.7,
    sessionId: 'session-1',
    mergedFrom: [],
    supersededBy: null,
    lastReinforcedAt: null,
    resolvedAt: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

function parse(overrides: Item) {
  return memoryItemSchema.safeParse(validItem(overrides));
}

function expectAccepted(overrides: Item): void {
  const result = parse(overrides);
  expect(result.error?.issues ?? []).toEqual([]);
  expect(result.success).toBe(true);
}

/** Rejected, and rejected because of `field` (not some other field of the factory). */
function expectRejected(overrides: Item, field: string): void {
  const result = parse(overrides);
  expect(result.success).toBe(false);
  const fields = (result.error?.issues ?? []).map((issue) => issue.path[0]);
  expect(fields).toContain(field);
  expect(fields.every((f) => f === field)).toBe(true);
}

const hex = (n: number) => 'abcdef0123456789'.repeat(3).slice(0, n);

describe('memoryItemSchema', () => {
  it('accepts the factory item', () => {
    const item = validItem();
    expect(memoryItemSchema.parse(item)).toEqual(item);
  });

  it('rejects an unknown key (strict)', () => {
    const result = parse({ extra: 1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['extra'] })]);
  });

  it.each(Object.keys(validItem()))('rejects the item without %s', (field) => {
    const item = validItem();
    delete item[field];
    const result = memoryItemSchema.safeParse(item);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toEqual([field]);
  });

  describe.each(['itemId', 'projectId'])('%s (ULID)', (field) => {
    it('accepts a generated ULID', () => expectAccepted({ [field]: newId() }));
    it('accepts 26 Crockford characters', () => expectAccepted({ [field]: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }));
    it.each([
      ['25 characters', '01ARZ3NDEKTSV4RRFFQ69G5FA'],
      ['27 characters', '01ARZ3NDEKTSV4RRFFQ69G5FAVV'],
      ['lowercase', '01arz3ndektsv4rrffq69g5fav'],
      ['the excluded letter I', '01ARZ3NDEKTSV4RRFFQ69G5FAI'],
      ['the excluded letter L', '01ARZ3NDEKTSV4RRFFQ69G5FAL'],
      ['the excluded letter O', '01ARZ3NDEKTSV4RRFFQ69G5FAO'],
      ['the excluded letter U', '01ARZ3NDEKTSV4RRFFQ69G5FAU'],
      ['a UUID', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
      ['empty', ''],
    ])('rejects %s', (_label, value) => expectRejected({ [field]: value }, field));
  });

  describe('type', () => {
    it.each([...ITEM_TYPES])('accepts %s', (type) => expectAccepted({ type }));
    it.each(['decision', 'Note', ''])('rejects %j', (type) => expectRejected({ type }, 'type'));
  });

  /** What every text field holds to, required or not: its maximum, and no NUL. */
  function itBoundsText(field: string, max: number) {
    it('accepts exactly the maximum', () => expectAccepted({ [field]: 'a'.repeat(max) }));
    it('rejects one past the maximum', () => expectRejected({ [field]: 'a'.repeat(max + 1) }, field));
    it('rejects NUL', () => expectRejected({ [field]: 'a\u0000b' }, field));
  }

  describe.each([
    ['title', 200],
    ['facts', 5000],
  ])('%s (required text, max %i)', (field, max) => {
    itBoundsText(field, max);
    it('accepts one character', () => expectAccepted({ [field]: 'a' }));
    it('rejects empty', () => expectRejected({ [field]: '' }, field));
    it('rejects null', () => expectRejected({ [field]: null }, field));
  });

  describe.each([
    ['rationale', 2000],
    ['impact', 1000],
  ])('%s (nullable text, max %i)', (field, max) => {
    itBoundsText(field, max);
    it('accepts null', () => expectAccepted({ [field]: null }));
  });

  describe('files', () => {
    const paths = (n: number) => Array.from({ length: n }, (_, i) => `src/file-${i}.ts`);
    it('accepts none', () => expectAccepted({ files: [] }));
    it('accepts 50 entries', () => expectAccepted({ files: paths(50) }));
    it('rejects 51 entries', () => expectRejected({ files: paths(51) }, 'files'));
    it('accepts a path of 1024 characters', () => expectAccepted({ files: ['a'.repeat(1024)] }));
    it('rejects a path of 1025 characters', () => expectRejected({ files: ['a'.repeat(1025)] }, 'files'));
    it('rejects an empty path', () => expectRejected({ files: [''] }, 'files'));
    it('rejects NUL in a path', () => expectRejected({ files: ['src/a\u0000.ts'] }, 'files'));
  });

  describe('tags', () => {
    it('accepts none', () => expectAccepted({ tags: [] }));
    it('accepts 5 tags', () => expectAccepted({ tags: ['a', 'b', 'c', 'd', 'e'] }));
    it('rejects 6 tags', () => expectRejected({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'tags'));
    it('accepts a tag of 50 characters', () => expectAccepted({ tags: ['a'.repeat(50)] }));
    it('rejects a tag of 51 characters', () => expectRejected({ tags: ['a'.repeat(51)] }, 'tags'));
    it.each(['token-refresh', 'auth', 'v2', 'a-b-c', '2fa'])('accepts %j', (tag) => expectAccepted({ tags: [tag] }));
    it.each(['Token', 'a--b', '-a', 'a-', 'a_b', 'a b', 'a.b', 'é', ''])('rejects %j', (tag) =>
      expectRejected({ tags: [tag] }, 'tags'),
    );
  });

  describe('schemaKey', () => {
    it.each(['root', 'root/frontend/hooks', 'root/code_map/api-routes', 'a1/b2'])('accepts %j', (schemaKey) =>
      expectAccepted({ schemaKey }),
    );
    it.each(['', 'Root', 'root/', '/root', 'root//hooks', 'root/front end', 'root/-x', 'root/x_', 'root.hooks'])(
      'rejects %j',
      (schemaKey) => expectRejected({ schemaKey }, 'schemaKey'),
    );
    it('accepts 200 characters', () => expectAccepted({ schemaKey: 'root/' + 'a'.repeat(195) }));
    it('rejects 201 characters', () => expectRejected({ schemaKey: 'root/' + 'a'.repeat(196) }, 'schemaKey'));
  });

  describe('commitRange', () => {
    it('accepts null', () => expectAccepted({ commitRange: null }));
    it('accepts 7 hex on each side', () => expectAccepted({ commitRange: `${hex(7)}..${hex(7)}` }));
    it('accepts 40 hex on each side', () => expectAccepted({ commitRange: `${hex(40)}..${hex(40)}` }));
    it.each([
      ['6 hex on the left', `${hex(6)}..${hex(7)}`],
      ['6 hex on the right', `${hex(7)}..${hex(6)}`],
      ['41 hex on the left', `${hex(41)}..${hex(7)}`],
      ['41 hex on the right', `${hex(7)}..${hex(41)}`],
      ['no ..', `${hex(7)}${hex(7)}`],
      ['a single dot', `${hex(7)}.${hex(7)}`],
      ['three dots', `${hex(7)}...${hex(7)}`],
      ['uppercase hex', 'ABCDEF1..1234567'],
      ['a non-hex letter', 'abcdefg..1234567'],
      ['a single SHA', hex(40)],
      ['empty', ''],
    ])('rejects %s', (_label, commitRange) => expectRejected({ commitRange }, 'commitRange'));
  });

  describe('confidence', () => {
    it.each([0, 0.5, 1])('accepts %p', (confidence) => expectAccepted({ confidence }));
    it.each([-0.01, 1.01, NaN, Infinity, '0.5', null])('rejects %p', (confidence) =>
      expectRejected({ confidence }, 'confidence'),
    );
  });

  describe('salience', () => {
    it.each([0, 0.5, 1, null])('accepts %p', (salience) => expectAccepted({ salience }));
    it.each([-0.01, 1.01, '0.5', undefined])('rejects %p', (salience) => expectRejected({ salience }, 'salience'));
  });

  describe('importance', () => {
    it.each([1, 2, 3, 4, 5, null])('accepts %p', (importance) => expectAccepted({ importance }));
    it.each([0, 6, 2.5, -1, '3'])('rejects %p', (importance) => expectRejected({ importance }, 'importance'));
  });

  describe('status', () => {
    it('has exactly the five statuses', () => {
      expect([...ITEM_STATUSES].sort()).toEqual(['active', 'archived', 'review', 'stale', 'superseded']);
    });
    it.each(['active', 'stale', 'review', 'superseded', 'archived'])('accepts %s', (status) =>
      expectAccepted({ status }),
    );
    it.each(['deprecated', 'draft', 'Active', ''])('rejects %j', (status) => expectRejected({ status }, 'status'));
  });

  describe.each(['resolvedAt', 'lastReinforcedAt'])('%s (nullable date)', (field) => {
    it('accepts null', () => expectAccepted({ [field]: null }));
    it('accepts a Date', () => expectAccepted({ [field]: new Date('2026-11-21T10:00:00Z') }));
    it('rejects an ISO string', () => expectRejected({ [field]: '2026-11-21T10:00:00Z' }, field));
    it('rejects an invalid Date', () => expectRejected({ [field]: new Date('not a date') }, field));
  });

  describe.each(['createdAt', 'updatedAt'])('%s (date)', (field) => {
    it('rejects null', () => expectRejected({ [field]: null }, field));
  });

  describe('evidenceSpans', () => {
    const span = (overrides: Item) => ({ eventId: 'evt-1', quote: 'a quote', ...overrides });
    it('accepts none', () => expectAccepted({ evidenceSpans: [] }));
    it('accepts several', () => expectAccepted({ evidenceSpans: [span({}), span({ eventId: 'evt-2' })] }));
    it('accepts a quote of 2000 characters', () =>
      expectAccepted({ evidenceSpans: [span({ quote: 'q'.repeat(2000) })] }));
    it.each([
      ['a quote of 2001 characters', span({ quote: 'q'.repeat(2001) })],
      ['an empty quote', span({ quote: '' })],
      ['NUL in the quote', span({ quote: 'a\u0000b' })],
      ['an eventId with a space', span({ eventId: 'evt 1' })],
      ['an eventId of 201 characters', span({ eventId: 'e'.repeat(201) })],
      ['a missing quote', { eventId: 'evt-1' }],
      ['an unknown key', span({ offset: 3 })],
    ])('rejects %s', (_label, s) => expectRejected({ evidenceSpans: [s] }, 'evidenceSpans'));
  });

  describe('evidenceRefs', () => {
    it('accepts client ids', () => expectAccepted({ evidenceRefs: ['evt-1', 'a.b:c/d@e+f=g_h'] }));
    it.each(['', 'evt 1', '-evt'])('rejects %j', (ref) => expectRejected({ evidenceRefs: [ref] }, 'evidenceRefs'));
  });

  describe('dedupHint', () => {
    it('accepts null', () => expectAccepted({ dedupHint: null }));
    it.each(['bugfix:auth:token-refresh', 'decision:database:chose-appwrite', 'a:b:c', 'impl:side.bar:refactor_v2'])(
      'accepts %j',
      (dedupHint) => expectAccepted({ dedupHint }),
    );
    it.each([
      ['2 segments', 'bugfix:auth'],
      ['4 segments', 'bugfix:auth:token:refresh'],
      ['uppercase', 'BugFix:auth:token-refresh'],
      ['an empty segment', 'bugfix::token-refresh'],
      ['a trailing colon', 'bugfix:auth:token-refresh:'],
      ['a space', 'bugfix:auth:token refresh'],
      ['a doubled separator', 'bugfix:auth:token--refresh'],
      ['empty', ''],
    ])('rejects %s', (_label, dedupHint) => expectRejected({ dedupHint }, 'dedupHint'));
    it('accepts 200 characters', () => expectAccepted({ dedupHint: 'a'.repeat(196) + ':b:c' }));
    it('rejects 201 characters', () => expectRejected({ dedupHint: 'a'.repeat(197) + ':b:c' }, 'dedupHint'));
  });

  describe('item references', () => {
    it('accepts ULIDs in mergedFrom and supersededBy', () =>
      expectAccepted({ mergedFrom: [newId(), newId()], supersededBy: newId() }));
    it('rejects a non-ULID in mergedFrom', () => expectRejected({ mergedFrom: ['item-1'] }, 'mergedFrom'));
    it('rejects a non-ULID supersededBy', () => expectRejected({ supersededBy: 'item-1' }, 'supersededBy'));
  });

  it('rejects an empty sessionId', () => expectRejected({ sessionId: '' }, 'sessionId'));
});

describe('dedupGroup', () => {
  it('keeps category and topic', () => {
    expect(dedupGroup('bugfix:auth:token-refresh')).toBe('bugfix:auth');
  });

  it('groups hints that differ only in key', () => {
    expect(dedupGroup('decision:database:a')).toBe(dedupGroup('decision:database:b'));
    expect(dedupGroup('decision:database:a')).not.toBe(dedupGroup('decision:cache:a'));
  });
});

describe('authored item types', () => {
  it('are every type but CodeMapNode', () => {
    expect(AUTHORED_ITEM_TYPES).toEqual(ITEM_TYPES.filter((t) => t !== 'CodeMapNode'));
  });

  it('an edit may give any of them, and refuses CodeMapNode naming the types it takes', () => {
    for (const type of AUTHORED_ITEM_TYPES) expect(patchItemBodySchema.safeParse({ type }).success).toBe(true);
    const refused = patchItemBodySchema.safeParse({ type: 'CodeMapNode' });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({
        path: ['type'],
        message:
          'must be one of Decision, Convention, BugFix, Todo, ArchitectureNote, ImplementationFact (CodeMapNode items come from code scans)',
      }),
    ]);
  });
});
