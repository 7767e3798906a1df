import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { fixtureRawEvents } from '../support/claude-code-fixtures';
import { storeEvents } from '../support/events';
import { request, type ErrorBody } from '../support/http';
import { useTestApp } from '../support/use-test-app';

// A session's task frames over HTTP, and the context pack for a prompt in that session, which
// starts from its stack: the root goal, the frame being worked on, what finished under it.
const ctx = useTestApp([IngestApiModule, BrainApiModule]);
const url = (path: string) => `${ctx.server.url}${path}`;

type Frame = { id: string; goal: string; parent?: string; status: string; result?: string; depth: number };
type Tasks = { sessionId: string; root: string; current: string; path: string[]; completed: string[]; frames: Frame[] };
type Pack = {
  content: string;
  components: Array<{ type: string; source: string; content: string }>;
  metadata: Record<string, unknown>;
};

beforeAll(async () => {
  const events = fixtureRawEvents('mixed-task-agent.jsonl');
  await storeEvents(ctx.server.app, ctx.project.projectId, 'session-mix-001', events);
});

describe('GET /api/v2/sessions/:sessionId/tasks', () => {
  it('reads the root goal, the todo in progress and the finished subagent', async () => {
    const res = await request<Tasks>(url('/api/v2/sessions/session-mix-001/tasks'), { key: ctx.project.apiKey });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.frames.map((f) => [f.id, f]));
    expect(byId.get(res.body.root)!.goal).toBe("Let's add tests and set up CI. Run the existing tests first.");
    const current = byId.get(res.body.current)!;
    expect(current).toMatchObject({
      goal: 'Add edge case tests for pipeline',
      status: 'active',
      parent: 'root',
      depth: 1,
    });
    expect(res.body.path).toEqual(['root', current.id]);
    const [done] = res.body.completed.map((id) => byId.get(id)!);
    expect(done).toMatchObject({ goal: 'Find test patterns', parent: current.id, status: 'complete' });
    expect(done!.result).toMatch(/Found 2 test files/);
    expect(res.body.frames.filter((f) => f.status === 'pending').map((f) => f.goal)).toEqual([
      'Set up GitHub Actions CI',
      'Add test coverage reporting',
    ]);
  });

  it('answers an unknown session with a 404, and no key with a 401', async () => {
    const res = await request<ErrorBody>(url('/api/v2/sessions/nope/tasks'), { key: ctx.project.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('SESSION_NOT_FOUND');
    expect((await request(url('/api/v2/sessions/session-mix-001/tasks'))).status).toBe(401);
  });
});

describe('the context pack for a prompt in a session', () => {
  it("starts from the task stack, and shows the session's own recent events", async () => {
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: ctx.project.apiKey,
      body: { query: 'which edge cases does the pipeline miss?', maxTokens: 1500, sessionId: 'session-mix-001' },
    });
    expect(res.status).toBe(200);
    const lines = res.body.content.split('\n');
    expect(lines.slice(2, 5)).toEqual([
      "- _goal:_ Let's add tests and set up CI. Run the existing tests first.",
      '- _doing:_ Add edge case tests for pipeline',
      expect.stringMatching(/^- _done:_ Find test patterns → Found 2 test files/),
    ]);
    expect(res.body.components.slice(0, 3).map((c) => c.type)).toEqual(['custom', 'custom', 'custom']);
    expect(res.body.components.some((c) => c.type === 'recent')).toBe(true);
    expect(res.body.metadata.taskFrames).toBe(5);
  });

  it('answers a session it does not know without a stack', async () => {
    const res = await request<Pack>(url('/api/v2/context-pack'), {
      key: ctx.project.apiKey,
      body: { query: 'anything', maxTokens: 500, sessionId: 'unknown-session' },
    });
    expect(res.status).toBe(200);
    expect(res.body.components.filter((c) => c.type === 'custom')).toEqual([]);
  });
});
