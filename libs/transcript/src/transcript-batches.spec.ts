import { eventsOfLines, toBatches } from './transcript-batches';

const line = (uuid: string, type: 'user' | 'assistant', content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    uuid,
    type,
    timestamp: '2026-11-20T14:00:00.000Z',
    cwd: '/home/dev/p',
    gitBranch: 'main',
    message: { role: type, content },
    ...extra,
  });

describe('eventsOfLines', () => {
  it('names the tool of a result whose call was read by an earlier hook', () => {
    const first = eventsOfLines(
      [line('u1', 'assistant', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }])],
      [],
    );
    expect(first.tools).toEqual([['toolu_1', { name: 'Bash', command: 'npm test' }]]);
    const second = eventsOfLines(
      [line('u2', 'user', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }])],
      first.tools,
    );
    expect(second.events).toEqual([
      expect.objectContaining({
        eventId: 'u2:0',
        type: 'command',
        metadata: { toolUseId: 'toolu_1', tool: 'Bash', command: 'npm test' },
      }),
    ]);
    expect(second.branch).toBe('main');
  });

  it("reads paths relative to the session's first directory, in later hooks too, wherever the shell went", () => {
    // Real (obsessiondb-chkit): after `cd packages/codegen`, Claude Code's cwd follows the shell.
    const edit = (uuid: string, id: string, path: string, cwd: string) =>
      line(uuid, 'assistant', [{ type: 'tool_use', id, name: 'Edit', input: { file_path: path } }], { cwd });
    const first = eventsOfLines([edit('a1', 't1', '/home/dev/p/tsconfig.base.json', '/home/dev/p')], []);
    expect(first.root).toBe('/home/dev/p');
    const second = eventsOfLines(
      [
        edit('a2', 't2', '/home/dev/p/packages/codegen/package.json', '/home/dev/p/packages/codegen'),
        edit('a3', 't3', '/etc/hosts', '/home/dev/p/packages/codegen'),
      ],
      first.tools,
      first.root,
    );
    expect(second.events.map((e) => e.content)).toEqual(['Edit packages/codegen/package.json', 'Edit /etc/hosts']);
    expect(second.root).toBe('/home/dev/p');
  });

  it("names a file in a worktree of the project as the project's own", () => {
    // Claude Code's EnterWorktree moves the session into <root>/.claude/worktrees/<name>.
    const edit = (uuid: string, path: string, cwd: string) =>
      line(uuid, 'assistant', [{ type: 'tool_use', id: uuid, name: 'Edit', input: { file_path: path } }], { cwd });
    const read = eventsOfLines(
      [
        edit('w1', '/home/dev/p/src/a.ts', '/home/dev/p'),
        edit('w2', '/home/dev/p/.claude/worktrees/agent-ab1e/src/a.ts', '/home/dev/p/.claude/worktrees/agent-ab1e'),
        edit('w3', '/home/dev/p/.worktrees/streaming/src/b.ts', '/home/dev/p/.worktrees/streaming'),
      ],
      [],
    );
    expect(read.events.map((e) => e.content)).toEqual(['Edit src/a.ts', 'Edit src/a.ts', 'Edit src/b.ts']);
  });

  it('skips lines that are not JSON and drops events ingest would refuse', () => {
    const read = eventsOfLines(['not json', line('u3', 'user', 'fine'), line('u4', 'user', 'bad \ud800 text')], []);
    expect(read.events.map((e) => e.eventId)).toEqual(['u3']);
    expect(read.dropped).toBe(1);
  });

  it('remembers only the latest tool calls', () => {
    const uses = Array.from({ length: 400 }, (_, i) =>
      line(`a${i}`, 'assistant', [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: 'x' } }]),
    );
    const { tools } = eventsOfLines(uses, []);
    expect(tools).toHaveLength(300);
    expect(tools.at(-1)![0]).toBe('t399');
  });
});

describe('toBatches', () => {
  const event = (i: number, size = 10) => ({
    eventId: `e${i}`,
    type: 'prompt' as const,
    timestamp: '2026-11-20T14:00:00.000Z',
    content: 'x'.repeat(size),
  });

  it('keeps every batch within the event and byte limits, in order', () => {
    const events = Array.from({ length: 25 }, (_, i) => event(i, 100));
    const batches = toBatches(events, { maxEvents: 10, maxBytes: 1000 });
    expect(batches.flat()).toEqual(events);
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(10);
      expect(Buffer.byteLength(JSON.stringify(batch))).toBeLessThanOrEqual(1000 + batch.length);
    }
    expect(toBatches([])).toEqual([]);
  });

  it('sends an event larger than a batch alone', () => {
    const batches = toBatches([event(1), event(2, 5000), event(3)], { maxEvents: 10, maxBytes: 1000 });
    expect(batches.map((b) => b.map((e) => e.eventId))).toEqual([['e1'], ['e2'], ['e3']]);
  });
});
