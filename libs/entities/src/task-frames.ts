import { humanText } from './human-text';
import { inputOf, toolOf } from './event-tools';
import type { SourceEvent } from './types';

/** The task model of spec/context-assembly.md "Stack-Based Context", read from a session. */
export interface TaskFrame {
  id: string;
  goal: string;
  parent?: string;
  children: string[];
  status: 'active' | 'pending' | 'complete' | 'blocked';
  /** What a finished subagent answered, or that a todo was done. */
  result?: string;
  depth: number;
  /** The event that set the goal. */
  eventId: string;
}

export interface TaskStack {
  frames: TaskFrame[];
  /** The frame being worked on: the deepest active one. */
  current: string;
  /** Root to current. */
  path: TaskFrame[];
  /** Finished frames beside the current one (same parent) or under it: what the current work builds on. */
  done: TaskFrame[];
}

const GOAL_CHARS = 300;
const RESULT_CHARS = 400;
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
/** The tools whose calls a task stack is read from. */
export const TASK_TOOLS = ['TodoWrite', 'TaskCreate', 'TaskUpdate', 'Task', 'Agent'] as const;
/** A session's task calls read to build its stack, newest first: enough for any real session's plan. */
export const TASK_EVENTS = 500;
const TODO_LINE = /^- \[([ x~])\] (.+)$/;
const STATUS: Record<string, TaskFrame['status']> = { x: 'complete', '~': 'active', ' ': 'pending' };
const UPDATE_STATUS: Record<string, TaskFrame['status']> = {
  completed: 'complete',
  in_progress: 'active',
  pending: 'pending',
  deleted: 'blocked',
};

const cut = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/**
 * A session's task stack: the first prompt the person wrote is the root goal; the latest TodoWrite list and
 * TaskCreate/TaskUpdate tasks are its subtasks; a Task or Agent call is a subtask of the todo
 * in progress when it was made, complete once its result came back.
 */
export function taskStack(events: readonly SourceEvent[]): TaskStack {
  // The first thing the person asked: harness text (a `/clear`, a shell escape, a skill body)
  // is nobody's goal.
  const firstPrompt = events.find((e) => e.type === 'prompt' && humanText(e.content).length > 0);
  const root: TaskFrame = {
    id: 'root',
    goal: firstPrompt ? cut(humanText(firstPrompt.content), GOAL_CHARS) : 'session',
    children: [],
    status: 'active',
    depth: 0,
    eventId: firstPrompt?.eventId ?? '',
  };
  const todos = new Map<string, TaskFrame>();
  const tasks = new Map<string, TaskFrame>();
  const agents = new Map<string, TaskFrame>();
  /** toolUseId of a TaskCreate → its frame, until its result names the task's number. */
  const created = new Map<string, TaskFrame>();

  for (const event of events) {
    const tool = toolOf(event);
    const useId = typeof event.metadata?.toolUseId === 'string' ? event.metadata.toolUseId : undefined;
    if (event.type === 'tool_call' && tool === 'TodoWrite') {
      const listed = event.content
        .split('\n')
        .slice(1)
        .map((l) => TODO_LINE.exec(l.trim()))
        .filter((m) => m !== null);
      // The list is rewritten whole each time: todos it no longer holds are gone.
      const keep = new Map<string, TaskFrame>();
      for (const [, mark, text] of listed) {
        const goal = cut(text!, GOAL_CHARS);
        const frame = todos.get(goal) ?? {
          id: `todo:${keep.size + 1}:${event.eventId}`,
          goal,
          children: [],
          status: 'pending',
          depth: 1,
          eventId: event.eventId,
          parent: 'root',
        };
        // A todo finished says nothing past its goal: no result is made up for it ("done: X").
        frame.status = STATUS[mark!]!;
        keep.set(goal, frame);
      }
      todos.clear();
      for (const [goal, frame] of keep) todos.set(goal, frame);
    } else if (event.type === 'tool_call' && tool === 'TaskCreate') {
      const subject = event.content.replace(/^TaskCreate:\s*/, '').split('\n')[0] ?? '';
      const frame: TaskFrame = {
        id: `task:${event.eventId}`,
        goal: cut(subject, GOAL_CHARS),
        parent: 'root',
        children: [],
        status: 'pending',
        depth: 1,
        eventId: event.eventId,
      };
      if (useId) created.set(useId, frame);
      tasks.set(frame.id, frame);
    } else if (event.type === 'tool_call' && tool === 'TaskUpdate') {
      const input = inputOf(event);
      const frame = [...tasks.values()].find((t) => t.id === `task#${String(input.taskId)}`);
      const status = typeof input.status === 'string' ? UPDATE_STATUS[input.status] : undefined;
      if (frame && status) frame.status = status;
    } else if (event.type === 'tool_call' && tool && SUBAGENT_TOOLS.has(tool)) {
      const input = inputOf(event);
      const description =
        typeof input.description === 'string' ? input.description : event.content.replace(/^\w+:\s*/, '');
      // Several todos in progress at once (three agents fanned out for tasks 1–3): each agent
      // goes under the one its description shares most words with, the first on a tie.
      const parent = closestFrame(
        [...todos.values(), ...tasks.values()].filter((f) => f.status === 'active'),
        description,
      );
      const frame: TaskFrame = {
        id: `agent:${useId ?? event.eventId}`,
        goal: cut(description, GOAL_CHARS),
        parent: parent?.id ?? 'root',
        children: [],
        status: 'active',
        depth: parent ? 2 : 1,
        eventId: event.eventId,
      };
      agents.set(useId ?? event.eventId, frame);
    } else if (useId && event.type !== 'tool_call') {
      const agent = agents.get(useId);
      if (agent) {
        agent.status = event.type === 'error' ? 'blocked' : 'complete';
        agent.result = cut(event.content, RESULT_CHARS);
      }
      const pending = created.get(useId);
      const number = /Task #(\w+) created/.exec(event.content)?.[1];
      if (pending && number) {
        tasks.delete(pending.id);
        pending.id = `task#${number}`;
        tasks.set(pending.id, pending);
      }
    }
  }

  const frames = [root, ...todos.values(), ...tasks.values(), ...agents.values()];
  const byId = new Map(frames.map((f) => [f.id, f]));
  for (const frame of frames) if (frame.parent) byId.get(frame.parent)?.children.push(frame.id);

  // The deepest active frame, the latest among equals: what the session is doing now.
  const active = frames.filter((f) => f.status === 'active' && f.id !== 'root');
  const current = active.reduce<TaskFrame>((best, f) => (f.depth >= best.depth ? f : best), root);
  const path: TaskFrame[] = [];
  for (let f: TaskFrame | undefined = current; f; f = f.parent ? byId.get(f.parent) : undefined) path.unshift(f);
  const done = frames.filter(
    (f) =>
      f.status === 'complete' &&
      (f.parent === (current.parent ?? 'root') || f.parent === current.id) &&
      f.id !== current.id,
  );
  return { frames, current: current.id, path, done };
}

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !SMALL.has(w)));
const SMALL = new Set(['the', 'and', 'for', 'with', 'from', 'into', 'that', 'this']);

/** Of the frames, the one whose goal shares most words with the text; the first on a tie. */
function closestFrame(frames: TaskFrame[], text: string): TaskFrame | undefined {
  const own = words(text);
  let best: TaskFrame | undefined;
  let bestShared = -1;
  for (const frame of frames) {
    const shared = [...words(frame.goal)].filter((w) => own.has(w)).length;
    if (shared > bestShared) {
      best = frame;
      bestShared = shared;
    }
  }
  return best;
}
