import { fixtureEvents } from '../../../test/support/claude-code-fixtures';
import { taskStack } from './task-frames';
import type { SourceEvent } from './types';

describe('taskStack', () => {
  it("reads the real session's todo list: root goal, finished todos, none left active", () => {
    const events = fixtureEvents('fix-type-errors.jsonl');
    const stack = taskStack(events);
    const root = stack.frames[0]!;
    expect(root.id).toBe('root');
    // The session opens with a shell escape (`<bash-input>uv run ty check</bash-input>`): the
    // goal is what the person then asked.
    expect(root.goal).not.toMatch(/^</);
    expect(root.goal.length).toBeGreaterThan(0);
    const todos = stack.frames.filter((f) => f.id.startsWith('todo:'));
    expect(todos.map((t) => t.goal)).toContain('Fix possibly-unbound-attribute warning for cached_data.version');
    expect(todos.every((t) => t.parent === 'root' && t.depth === 1)).toBe(true);
    expect(root.children).toEqual(todos.map((t) => t.id));
    const last = stack.frames.filter((f) => f.status === 'complete');
    expect(last.length).toBeGreaterThan(0);
    expect(stack.path.map((f) => f.id)).toEqual(['root', ...(stack.current === 'root' ? [] : [stack.current])]);
  });

  it('puts a Task call under the todo in progress, complete with its result', () => {
    const events = fixtureEvents('mixed-task-agent.jsonl');
    const stack = taskStack(events);
    const agent = stack.frames.find((f) => f.id.startsWith('agent:'))!;
    expect(agent.goal).toBe('Find test patterns');
    expect(agent.status).toBe('complete');
    expect(agent.result).toMatch(/Found 2 test files/);
    const parent = stack.frames.find((f) => f.id === agent.parent)!;
    expect(parent.goal).toBe('Add edge case tests for pipeline');
    expect(agent.depth).toBe(2);
    // The todo in progress is the current frame; the finished subagent is below it, not beside.
    expect(stack.current).toBe(parent.id);
    expect(stack.path.map((f) => f.id)).toEqual(['root', parent.id]);
    expect(stack.done.map((f) => f.id)).toEqual([agent.id]);
  });

  it('keeps an unanswered subagent as the current frame, and tracks TaskCreate/TaskUpdate', () => {
    const base = { occurredAt: 0, metadata: null };
    const events: SourceEvent[] = [
      { ...base, eventId: 'p', type: 'prompt', content: 'Ship the release' },
      {
        ...base,
        eventId: 'c',
        type: 'tool_call',
        content: 'TaskCreate: Write notes',
        metadata: { tool: 'TaskCreate', toolUseId: 'u1' },
      },
      {
        ...base,
        eventId: 'r',
        type: 'tool_result',
        content: 'Task #1 created successfully: Write notes',
        metadata: { tool: 'TaskCreate', toolUseId: 'u1' },
      },
      {
        ...base,
        eventId: 'u',
        type: 'tool_call',
        content: 'TaskUpdate',
        metadata: { tool: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } },
      },
      {
        ...base,
        eventId: 'a',
        type: 'tool_call',
        content: 'Agent: Draft changelog',
        metadata: { tool: 'Agent', toolUseId: 'u2', input: { description: 'Draft changelog' } },
      },
    ];
    const stack = taskStack(events);
    expect(stack.path.map((f) => f.goal)).toEqual(['Ship the release', 'Write notes', 'Draft changelog']);
    expect(stack.current).toBe('agent:u2');
  });

  it('puts each of several agents under the todo in progress it is about, not all under the first', () => {
    const base = { occurredAt: 0, metadata: null };
    const agent = (id: string, description: string): SourceEvent => ({
      ...base,
      eventId: id,
      type: 'tool_call',
      content: `Agent: ${description}`,
      metadata: { tool: 'Agent', toolUseId: id, input: { description } },
    });
    const events: SourceEvent[] = [
      { ...base, eventId: 'p', type: 'prompt', content: 'Research three topics in parallel' },
      {
        ...base,
        eventId: 't',
        type: 'tool_call',
        content:
          'TodoWrite:\n- [~] Research plan mode behaviour\n- [~] Research teammate messaging\n- [~] Research worktree merges',
        metadata: { tool: 'TodoWrite' },
      },
      agent('a1', 'Plan mode research'),
      agent('a2', 'Teammate messaging research'),
      agent('a3', 'Worktree merges research'),
    ];
    const stack = taskStack(events);
    const parentOf = (id: string) =>
      stack.frames.find((f) => f.id === stack.frames.find((a) => a.id === id)!.parent)!.goal;
    expect([parentOf('agent:a1'), parentOf('agent:a2'), parentOf('agent:a3')]).toEqual([
      'Research plan mode behaviour',
      'Research teammate messaging',
      'Research worktree merges',
    ]);
  });
});
