import fc from 'fast-check';
import { DEDUP_HINT_PATTERN, ITEM_TYPES, SCHEMA_KEY_PATTERN, TYPE_BRANCH, type ItemType } from '@memex/domain';
import { HINT_CATEGORY, SCHEMA_KEY_TAXONOMY, areaOf, dedupHintFor, schemaKeyFor } from './taxonomy';

describe('areaOf', () => {
  it('skips container directories such as src, apps, libs and packages', () => {
    expect(areaOf(['src/frontend/hooks/useAuth.ts'])).toEqual(['frontend', 'hooks']);
    expect(areaOf(['apps/api/src/auth/login.ts'])).toEqual(['api', 'auth']);
    expect(areaOf(['libs/db/migrations/001.sql'])).toEqual(['db', 'migrations']);
    expect(areaOf(['packages/ui/button.tsx'])).toEqual(['ui']);
  });

  it('ignores the file name and leading ./ or /', () => {
    expect(areaOf(['./src/api/x.ts'])).toEqual(['api']);
    expect(areaOf(['/srv/api/x.ts'])).toEqual(['srv', 'api']);
    expect(areaOf(['README.md'])).toEqual([]);
    expect(areaOf(['src/index.ts'])).toEqual([]);
  });

  it('lowercases directories and turns other characters into hyphens', () => {
    expect(areaOf(['src/Frontend/My Hooks/x.ts'])).toEqual(['frontend', 'my-hooks']);
  });

  it('keeps at most two shared segments', () => {
    expect(areaOf(['libs/db/migrations/v1/x.sql', 'libs/db/migrations/v1/y.sql'])).toEqual(['db', 'migrations']);
  });

  it('keeps only the segments every file shares', () => {
    expect(areaOf(['apps/api/src/auth/a.ts', 'apps/api/src/auth/b.ts'])).toEqual(['api', 'auth']);
    expect(areaOf(['api/auth/a.ts', 'api/users/b.ts'])).toEqual(['api']);
  });

  it("falls back to the first file's first segment when the files share nothing", () => {
    expect(areaOf(['frontend/hooks/a.ts', 'backend/db/b.ts'])).toEqual(['frontend']);
    expect(areaOf(['backend/db/b.ts', 'frontend/hooks/a.ts'])).toEqual(['backend']);
  });

  it('ignores files without a directory beyond the containers', () => {
    expect(areaOf(['README.md', 'src/index.ts', 'docs/guide/intro.md'])).toEqual(['docs', 'guide']);
    expect(areaOf([])).toEqual([]);
  });
});

describe('schemaKeyFor', () => {
  it('is root/<area> when files give an area', () => {
    expect(schemaKeyFor('Decision', ['src/frontend/hooks/useAuth.ts'])).toBe('root/frontend/hooks');
    expect(schemaKeyFor('BugFix', ['apps/api/src/auth/login.ts', 'apps/api/src/auth/token.ts'])).toBe('root/api/auth');
  });

  it.each<[ItemType, string]>([
    ['Decision', 'root/decisions'],
    ['Convention', 'root/conventions'],
    ['BugFix', 'root/bugs'],
    ['Todo', 'root/todos'],
    ['ArchitectureNote', 'root/architecture'],
    ['ImplementationFact', 'root/implementation'],
    ['CodeMapNode', 'root/codemap'],
  ])('puts a %s without files under %s', (type, key) => {
    expect(schemaKeyFor(type, [])).toBe(key);
    expect(schemaKeyFor(type, ['README.md'])).toBe(key);
  });

  it('matches the branches the prompt describes', () => {
    for (const type of ITEM_TYPES.filter((t) => t !== 'CodeMapNode')) {
      expect(SCHEMA_KEY_TAXONOMY.join('\n')).toContain(`root/${TYPE_BRANCH[type]}`);
    }
  });

  it('always matches SCHEMA_KEY_PATTERN', () => {
    const segment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom('a--b', 'a_-b', 'notes - old', '-x-', 'x'.repeat(300)),
    );
    const file = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.constantFrom(...ITEM_TYPES), fc.array(file, { maxLength: 4 }), (type, files) => {
        const key = schemaKeyFor(type, files);
        expect(key).toMatch(SCHEMA_KEY_PATTERN);
        expect(key.length).toBeLessThanOrEqual(200);
      }),
    );
  });
});

describe('dedupHintFor', () => {
  type Hint = [type: ItemType, text: string, hint: string, files?: string[]];
  it.each<[string, ...Hint[]]>([
    [
      'is category:topic:key with the area as topic when files give one',
      ['Decision', 'Use Kysely for all queries', 'decision:db:kysely-queries', ['libs/db/src/pool.ts']],
      ['Convention', 'Hooks start with use', 'convention:hooks:start', ['src/frontend/hooks/a.ts']],
    ],
    [
      'takes the first non-action word of the text as topic without files',
      ['BugFix', 'Fix retry loop in webhook sender', 'bugfix:retry:fix-loop-webhook-sender'],
      ['Todo', 'Add pagination to the invoice list', 'todo:pagination:add-invoice-list'],
    ],
    [
      'takes the code name the text is about as topic, before its first word',
      [
        'ImplementationFact',
        'Now calls `requireUser()` at the top of plan-stream',
        'implementation:requireuser:calls-top-plan-stream',
      ],
      ['Decision', 'Yes, still use the ledger table', 'decision:ledger:yes-still-table'],
    ],
    ['falls back to the first word when every word is an action', ['BugFix', 'fixed the bug', 'bugfix:fixed:bug']],
    [
      'reuses the topic as key when the text has nothing else',
      ['ArchitectureNote', 'Kysely', 'architecture:kysely:kysely'],
    ],
    [
      'is general:general for text without significant words',
      ['Decision', '', 'decision:general:general'],
      ['Decision', 'we will do this', 'decision:general:general'],
    ],
    [
      'keeps at most five key words',
      ['Todo', 'pagination one two three four five six seven', 'todo:pagination:one-two-three-four-five'],
    ],
  ])('%s', (_, ...cases) => {
    for (const [type, text, hint, files] of cases) expect(dedupHintFor(type, text, files)).toBe(hint);
  });

  it('starts with the category of each type', () => {
    for (const type of ITEM_TYPES)
      expect(dedupHintFor(type, 'ledger rounding').split(':')[0]).toBe(HINT_CATEGORY[type]);
  });

  it('always matches DEDUP_HINT_PATTERN and fits 200 characters', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.lorem({ maxCount: 12 }));
    const file = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.webPath());
    fc.assert(
      fc.property(fc.constantFrom(...ITEM_TYPES), text, fc.array(file, { maxLength: 4 }), (type, t, files) => {
        const hint = dedupHintFor(type, t, files);
        expect(hint).toMatch(DEDUP_HINT_PATTERN);
        expect(hint.length).toBeLessThanOrEqual(200);
      }),
      { numRuns: 500 },
    );
  });
});
