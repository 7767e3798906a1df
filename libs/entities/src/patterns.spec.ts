import { fixtureEvents } from '../../../test/support/claude-code-fixtures';
import { describePattern, errorOccurrences } from './patterns';
import type { SourceEvent } from './types';

let seq = 0;
const at = (over: Partial<SourceEvent>): SourceEvent => ({
  eventId: `e${(seq += 1)}`,
  type: 'tool_call',
  occurredAt: seq,
  content: '',
  metadata: null,
  ...over,
});
const run = (command: string) => at({ content: `Bash: ${command}`, metadata: { tool: 'Bash', input: { command } } });
const fail = (command: string, text: string) =>
  at({ type: 'error', content: text, metadata: { tool: 'Bash', command, isError: true } });
const pass = (command: string) => at({ type: 'command', content: 'ok', metadata: { tool: 'Bash', command } });
const edit = (path: string) =>
  at({ content: `Edit ${path}`, metadata: { tool: 'Edit', input: { file_path: path, new_string: 'x' } } });

describe('errorOccurrences', () => {
  it("finds the real session's fix: the edit between the last failing type check and the passing one", () => {
    const events = fixtureEvents('fix-type-errors.jsonl');
    const found = errorOccurrences(events);
    expect(found).toHaveLength(2);
    expect(found[0]!.signature).toBe(found[1]!.signature);
    // The first failure was retried and failed again: its changes did not fix it.
    expect(found[0]!.fix).toBeUndefined();
    expect(found[1]!.fix?.summary).toBe('editing test/test_cache.py');
    const ids = found[1]!.fix!.eventIds;
    const last = events.find((e) => e.eventId === ids[ids.length - 1]);
    expect(last?.type).toBe('command');
    expect(last?.content).toMatch(/All checks passed/);
  });

  it('counts installs as a fix, and leaves unconfirmed failures without one', () => {
    const events = [
      run('npm test'),
      fail('npm test', "Error: Cannot find module 'zod'"),
      run('npm i zod'),
      edit('src/a.ts'),
      run('npm test'),
      pass('npm test'),
      fail('make', 'make: *** No rule to make target 7. Stop. error'),
      edit('Makefile.mk'),
    ];
    const found = errorOccurrences(events);
    expect(found.map((f) => f.fix?.summary)).toEqual(['editing src/a.ts; running `npm i zod`', undefined]);
  });

  it('describes a pattern with its count and the most frequent fixes', () => {
    expect(
      describePattern({
        signature: 'Error: Cannot find module "…"',
        occurrences: 3,
        sessions: 2,
        fixes: [
          { summary: 'running `npm i zod`', count: 2, eventIds: [] },
          { summary: 'editing tsconfig.json', count: 1, eventIds: [] },
        ],
      }),
    ).toBe(
      'Error: Cannot find module "…" — seen 3 times in 2 sessions; fixed by running `npm i zod` (2×) or editing tsconfig.json',
    );
    expect(describePattern({ signature: 's', occurrences: 1, sessions: 1, fixes: [] })).toBe(
      's — seen 1 time; no fix recorded',
    );
  });
});
