import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptToEvents } from '@memex/transcript';
import type { EngineEvent } from '../candidate';
import { EvidenceIndex } from '../verify';
import { CONFIDENCE, extractLocally } from './local-engine';

let seq = 0;
function ev(type: EngineEvent['type'], content: string, metadata: Record<string, unknown> | null = null): EngineEvent {
  seq += 1;
  return { seq, eventId: `e${seq}`, type, timestamp: new Date('2026-11-21T09:00:00Z'), content, metadata };
}
const bash = (command: string) => ev('tool_call', `Bash: ${command}`, { tool: 'Bash', input: { command } });
const result = (content: string, exitCode: number, command = 'npm test') =>
  ev('tool_result', content, { tool: 'Bash', exitCode, command });
const edit = (path: string) => ev('tool_call', `Edit ${path}`, { tool: 'Edit', input: { file_path: path } });
const read = (path: string, content = 'export const x = 1;') => [
  ev('tool_call', `Read ${path}`, { tool: 'Read', input: { file_path: path } }),
  ev('tool_result', content, { tool: 'Read' }),
];

function summary(events: EngineEvent[]) {
  return extractLocally(events).map((i) => ({
    type: i.type,
    title: i.title,
    confidence: i.confidence,
    resolved: i.resolved,
  }));
}

describe('local engine: sessions that teach something', () => {
  it('turns a failing test, an edit and a passing rerun into a resolved BugFix, and the task into an ImplementationFact', () => {
    const events = [
      ev(
        'prompt',
        'The webhook sender drops events when the receiver times out. Please add retry with exponential backoff.',
      ),
      bash('npm test -- webhooks'),
      result("FAIL src/webhooks/sender.spec.ts\nTypeError: Cannot read properties of undefined (reading 'status')", 1),
      edit('src/webhooks/sender.ts'),
      edit('src/webhooks/retry.ts'),
      result('PASS src/webhooks/sender.spec.ts\nTests: 4 passed, 4 total', 0),
    ];
    const items = extractLocally(events);
    const fix = items.find((i) => i.type === 'BugFix')!;
    expect(fix).toMatchObject({
      title: "Fix: TypeError: Cannot read properties of undefined (reading 'status')",
      resolved: true,
      confidence: CONFIDENCE.fixConfirmed,
      files: ['src/webhooks/sender.ts', 'src/webhooks/retry.ts'],
      schemaKey: 'root/webhooks',
    });
    expect(fix.dedupHint).toMatch(/^bugfix:webhooks:/);
    const task = items.find((i) => i.type === 'ImplementationFact')!;
    expect(task.title).toBe('The webhook sender drops events when the receiver times out');
    expect(task.facts).toContain('Changed: src/webhooks/sender.ts, src/webhooks/retry.ts');
    expect(task.facts).toContain('Checked: npm test passed.');
    expect(items).toHaveLength(2);
  });

  it('leaves a bug open when no check passes after the edit', () => {
    const items = extractLocally([
      bash('npm run build'),
      result('src/db/pool.ts(12,3): error TS2345: Argument of type string is not assignable', 2, 'npm run build'),
      edit('src/db/pool.ts'),
    ]);
    expect(items).toEqual([expect.objectContaining({ type: 'BugFix', resolved: false, confidence: CONFIDENCE.fix })]);
  });

  it('reads decisions, conventions, todos, root causes and architecture notes from prose', () => {
    const types = summary([
      ev('response', 'We decided to use Postgres instead of MongoDB because we need transactions across tables.'),
      ev('prompt', 'Always run the migrations through the migrator, never by hand.'),
      ev('response', 'TODO: add a dead-letter queue for webhooks that still fail after 5 attempts.'),
      ev('response', 'The root cause was a missing await in the session cleanup job.'),
      ev('note', 'Architecture: the ingest service only writes raw events; the worker owns memory items.'),
    ]).map((i) => i.type);
    expect(types).toEqual(['Decision', 'Convention', 'Todo', 'BugFix', 'ArchitectureNote']);
  });

  it('gives a project-defining decision importance 4 and keeps its reason as rationale', () => {
    const [decision] = extractLocally([
      ev('response', "Let's use Postgres instead of MongoDB because we need transactions."),
    ]);
    expect(decision).toMatchObject({ type: 'Decision', importance: 4, rationale: 'we need transactions.' });
  });

  it('takes [MEMORY: type: text] tags of every type with the highest confidence', () => {
    const items = extractLocally([
      ev(
        'response',
        [
          'Done.',
          '[MEMORY: decision: Use Kysely for every SQL query, no raw pg calls]',
          '[MEMORY: convention: Name test files after the unit they test]',
          '[MEMORY: bugfix: Fixed the token refresh race by locking the session row]',
          '[MEMORY: todo: Add a migration for the audit log table]',
          '[MEMORY: architecture: The brain service reads items only, never events]',
          '[MEMORY: implementation: Added cursor pagination to the items endpoint]',
        ].join('\n'),
      ),
    ]);
    expect(items.map((i) => i.type)).toEqual([
      'Decision',
      'Convention',
      'BugFix',
      'Todo',
      'ArchitectureNote',
      'ImplementationFact',
    ]);
    expect(items.every((i) => i.confidence === CONFIDENCE.tag)).toBe(true);
    expect(items.find((i) => i.type === 'BugFix')?.resolved).toBe(true);
  });

  it('ranks confidence by how the item was found: tag over structure over keyword', () => {
    expect(CONFIDENCE.tag).toBeGreaterThan(CONFIDENCE.commit);
    expect(CONFIDENCE.commit).toBeGreaterThan(CONFIDENCE.task);
    expect(CONFIDENCE.task).toBeGreaterThan(CONFIDENCE.keyword);
  });

  it('records a commit with its message as an ImplementationFact', () => {
    const items = extractLocally([
      ev('commit', 'commit 3f2a9c1d Add cursor pagination to GET /memory-items', {
        sha: '3f2a9c1d',
        files: ['apps/api/items.ts'],
      }),
    ]);
    expect(items).toEqual([
      expect.objectContaining({
        type: 'ImplementationFact',
        title: 'Add cursor pagination to GET /memory-items',
        confidence: CONFIDENCE.commit,
        importance: 3,
      }),
    ]);
  });

  it('gives the same text the same dedup hint, so a later session reinforces instead of duplicating', () => {
    const a = extractLocally([ev('prompt', 'Never commit directly to main; open a pull request instead.')]);
    const b = extractLocally([ev('response', 'Never commit directly to main; open a pull request instead.')]);
    expect(a[0]?.dedupHint).toBe(b[0]?.dedupHint);
  });

  it('quotes only text that stands verbatim in its event', () => {
    const events = [
      ev('prompt', 'Please add rate limiting to the public API.\n\nWe decided to use a token bucket per API key.'),
      edit('src/api/rate-limit.ts'),
      edit('src/api/server.ts'),
      ev('response', 'Done. [MEMORY: convention: Every public route goes through the rate limiter]'),
    ];
    const index = new EvidenceIndex(events);
    const items = extractLocally(events);
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const item of items) expect(index.verify(item).ok).toBe(true);
  });
});

describe('local engine: text that must yield nothing', () => {
  it.each([
    ['a question', 'Should we always use tabs for indentation?'],
    ['an undecided choice', "We haven't decided whether to use Redis yet."],
    ['a hypothetical', 'If we use MySQL instead of Postgres we lose jsonb.'],
    ['"always" inside a code block', 'Here is the config:\n```\n// always retry\nretries: 3\n```'],
    ['a quoted line', '> Never do this in production.'],
    ['the assistant narrating', 'I need to read the file first, then I will look at the tests.'],
    ['small talk', 'Thanks, that looks great!'],
    ['a slash command wrapper', '<command-name>/clear</command-name>'],
    ['a system reminder', '<system-reminder>Always use the TodoWrite tool. Never skip it.</system-reminder>'],
    ['an interrupted turn', '[Request interrupted by user for tool use]'],
  ])('%s', (_label, content) => {
    expect(extractLocally([ev('prompt', content), ev('response', content)])).toEqual([]);
  });

  it('does not take "Error:" in a file that was read for a failure', () => {
    expect(
      extractLocally([
        ...read('src/errors.ts', 'export class NotFoundError extends Error {}\n// Error: thrown when missing'),
        edit('src/errors.ts'),
      ]),
    ).toEqual([]);
  });

  it('makes at most a handful of items from a session of 50 routine tool calls', () => {
    const routine: EngineEvent[] = [ev('prompt', 'How does the auth middleware work?')];
    for (let i = 0; i < 10; i += 1) {
      routine.push(...read(`src/auth/file${i}.ts`));
      routine.push(ev('tool_call', `Grep: verifyToken`, { tool: 'Grep', input: { pattern: 'verifyToken' } }));
      routine.push(ev('tool_call', 'Glob: src/**/*.ts', { tool: 'Glob', input: { pattern: 'src/**/*.ts' } }));
      routine.push(
        bash('git status'),
        result('On branch main\nnothing to commit, working tree clean', 0, 'git status'),
      );
    }
    routine.push(bash('npm test'), result('Tests: 120 passed, 120 total', 0));
    routine.push(ev('response', 'The middleware verifies the JWT and attaches the user to the request.'));
    expect(routine.filter((e) => e.type === 'tool_call' || e.type === 'tool_result').length).toBeGreaterThanOrEqual(50);
    expect(extractLocally(routine).length).toBeLessThanOrEqual(3);
  });

  it('ignores lockfile edits and one-line touches', () => {
    const items = extractLocally([
      ev('prompt', 'Bump the lodash dependency to the latest version please.'),
      ev('file_edit', 'Edited package-lock.json', { path: 'package-lock.json' }),
      ev('file_edit', 'Edited src/index.ts', { path: 'src/index.ts', linesAdded: 1, linesRemoved: 0 }),
    ]);
    expect(items).toEqual([]);
  });
});

describe('local engine on a Claude Code transcript', () => {
  const fixture = join(__dirname, '../../../../test/fixtures/claude-code/session-discount-fix.jsonl');
  const events = transcriptToEvents(readFileSync(fixture, 'utf8')).map((e, i) => ({
    ...e,
    seq: i + 1,
    timestamp: new Date(e.timestamp),
    metadata: e.metadata ?? null,
  }));

  it('finds the fix, its cause, the convention and the decision, each quoting its events verbatim', () => {
    const items = extractLocally(events);
    const index = new EvidenceIndex(events);
    for (const item of items) expect(index.verify(item)).toMatchObject({ ok: true });
    expect(items.map((i) => [i.type, i.title])).toEqual([
      ['BugFix', 'The root cause was that legacy discount codes have no `rule`, so `discount.rule.percent` throws'],
      ['Convention', 'Discount rules are optional; always handle codes without a rule'],
      [
        'Convention',
        'From now on, never call the payment gateway from the cart service; go through the checkout module',
      ],
      [
        'Decision',
        'We decided to keep the payment gateway behind the checkout module so the cart stays free of side effects',
      ],
      ['BugFix', "Fix: TypeError: Cannot read properties of undefined (reading 'percent')"],
    ]);
    const fix = items.find((i) => i.title.startsWith('Fix:'))!;
    expect(fix).toMatchObject({
      resolved: true,
      files: ['src/cart/cart.service.ts', 'src/cart/discount.ts'],
      schemaKey: 'root/cart',
    });
  });
});
