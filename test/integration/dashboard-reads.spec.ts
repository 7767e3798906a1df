import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { ProjectRepository } from '@memex/db';
import { event, request, type ErrorBody } from '../support/http';
import { insertItem } from '../support/items';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';

const ctx = useTestApp([IngestApiModule, BrainApiModule], { env: { ENRICHMENT_DEBOUNCE_MS: '60000' } });

const url = (path: string) => `${ctx.server.url}${path}`;
const key = () => ctx.project.apiKey;

type Session = {
  id: string;
  externalId: string;
  status: string;
  enrichmentPending: boolean;
  eventCount: number;
  itemCount: number;
};

async function post(sessionId: string, events: Array<Record<string, unknown>>, k = key()): Promise<void> {
  const res = await request(url('/api/v2/events'), { key: k, body: { sessionId, events } });
  expect(res.status).toBe(202);
}

describe('sessions', () => {
  beforeAll(async () => {
    await post('first-session', [event(), event(), event()]);
    await post('second-session', [event({ eventId: 'quoted-event', type: 'command', content: 'npm test' })]);
    const complete = await request(url('/api/v2/sessions/first-session/complete'), { key: key(), method: 'POST' });
    expect(complete.status).toBe(202);
  });

  it('lists the project’s sessions newest first with event and item counts, status and enrichment', async () => {
    const res = await request<{ sessions: Session[]; nextCursor: string | null }>(url('/api/v2/sessions'), {
      key: key(),
    });
    expect(res.status).toBe(200);
    expect(res.body.sessions.map((s) => s.externalId)).toEqual(['second-session', 'first-session']);
    const [second, first] = res.body.sessions;
    expect(first).toMatchObject({ status: 'completed', eventCount: 3, itemCount: 0, enrichmentPending: true });
    expect(second).toMatchObject({ status: 'open', eventCount: 1 });
    expect(res.body.nextCursor).toBeNull();

    await insertItem(ctx.database.db, ctx.project.projectId, { title: 'From the first session' });
    await ctx.database.db
      .updateTable('memory_items')
      .set({ session_id: first!.id })
      .where('title', '=', 'From the first session')
      .execute();
    const again = await request<{ sessions: Session[] }>(url('/api/v2/sessions'), { key: key() });
    expect(again.body.sessions[1]).toMatchObject({ externalId: 'first-session', itemCount: 1 });
    const items = await request<{ items: Array<{ title: string }> }>(
      url(`/api/v2/memory-items?sessionId=${first!.id}`),
      { key: key() },
    );
    expect(items.body.items.map((i) => i.title)).toEqual(['From the first session']);
  });

  it('pages with a cursor and refuses bad paging', async () => {
    const page = await request<{ sessions: Session[]; nextCursor: string }>(url('/api/v2/sessions?limit=1'), {
      key: key(),
    });
    expect(page.body.sessions).toHaveLength(1);
    const next = await request<{ sessions: Session[]; nextCursor: string | null }>(
      url(`/api/v2/sessions?limit=1&cursor=${page.body.nextCursor}`),
      { key: key() },
    );
    expect(next.body.sessions.map((s) => s.externalId)).toEqual(['first-session']);
    for (const bad of ['limit=0', 'limit=101', 'cursor=abc', 'status=open']) {
      const res = await request<ErrorBody>(url(`/api/v2/sessions?${bad}`), { key: key() });
      expect(res.status).toBe(400);
    }
  });

  it('shows no other project’s sessions, and needs a key', async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    const res = await request<{ sessions: Session[] }>(url('/api/v2/sessions'), { key: other.apiKey });
    expect(res.body.sessions).toEqual([]);
    expect((await request(url('/api/v2/sessions'))).status).toBe(401);
    expect((await request(url('/api/v2/sessions'), { key: 'mx_notakey' })).status).toBe(401);
  });
});

describe('events', () => {
  it('reads an event by its id with its session, for the key’s project only', async () => {
    const res = await request<Record<string, unknown>>(url('/api/v2/events/quoted-event'), { key: key() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      eventId: 'quoted-event',
      type: 'command',
      content: 'npm test',
      timestamp: '2026-11-21T09:30:00.000Z',
      session: { externalId: 'second-session' },
    });
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other-events');
    const hidden = await request<ErrorBody>(url('/api/v2/events/quoted-event'), { key: other.apiKey });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('EVENT_NOT_FOUND');
    expect((await request(url('/api/v2/events/no-such-event'), { key: key() })).status).toBe(404);
    expect((await request(url('/api/v2/events/-bad id'), { key: key() })).status).toBe(400);
    expect((await request(url('/api/v2/events/quoted-event'))).status).toBe(401);
  });
});

describe('the admin token on a project’s endpoints', () => {
  const as = (projectId?: string) => ({
    authorization: `Bearer ${ADMIN_TOKEN}`,
    ...(projectId ? { 'x-memex-project': projectId } : {}),
  });

  it('reads and curates the project X-Memex-Project names', async () => {
    const p = ctx.project.projectId;
    const sessions = await fetch(url('/api/v2/sessions'), { headers: as(p) });
    expect(sessions.status).toBe(200);
    const brain = await fetch(url('/api/v2/brain'), { headers: { ...as(p), accept: 'text/markdown' } });
    expect(brain.status).toBe(200);
    expect(await brain.text()).toMatch(/^# Project brain: test/);
    const created = await fetch(url('/api/v2/memory-items'), {
      method: 'POST',
      headers: { ...as(p), 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Convention', title: 'Written by an operator', facts: 'x' }),
    });
    expect(created.status).toBe(201);
    const search = await fetch(url('/api/v2/search?q=operator'), { headers: as(p) });
    expect(search.status).toBe(200);
  });

  it('needs the header (400), a project that exists (404) and the right token (401)', async () => {
    const missing = await request<ErrorBody>(url('/api/v2/memory-items'), { key: ADMIN_TOKEN });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^X-Memex-Project/);
    const bad = await fetch(url('/api/v2/memory-items'), { headers: as('not-a-project') });
    expect(bad.status).toBe(400);
    const unknown = await fetch(url('/api/v2/memory-items'), { headers: as('01KAAAAAAAAAAAAAAAAAAAAAAA') });
    expect(unknown.status).toBe(404);
    const wrong = await fetch(url('/api/v2/memory-items'), {
      headers: { authorization: 'Bearer not-the-admin-token-at-all', 'x-memex-project': ctx.project.projectId },
    });
    expect(wrong.status).toBe(401);
  });

  it('gives a project key its own project whatever the header says', async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('header-ignored');
    await insertItem(ctx.database.db, other.projectId, { title: 'Only in the other project' });
    const res = await fetch(url('/api/v2/memory-items?text=Only%20in%20the%20other'), {
      headers: { authorization: `Bearer ${key()}`, 'x-memex-project': other.projectId },
    });
    expect(((await res.json()) as { items: unknown[] }).items).toEqual([]);
  });
});

describe('operator reads', () => {
  it('lists projects with their item and session counts, a page at a time, for the admin token only', async () => {
    const res = await request<{
      projects: Array<{ projectId: string; name: string; items: number; sessions: number; createdAt: string }>;
      nextCursor: string | null;
    }>(url('/api/v2/projects'), { key: ADMIN_TOKEN });
    expect(res.status).toBe(200);
    const mine = res.body.projects.find((p) => p.projectId === ctx.project.projectId)!;
    expect(mine).toMatchObject({ name: 'test', sessions: 2 });
    expect(mine.items).toBeGreaterThanOrEqual(2);
    expect(res.body.projects.map((p) => p.projectId)).toEqual(res.body.projects.map((p) => p.projectId).sort());
    const first = await request<{ projects: Array<{ projectId: string }>; nextCursor: string }>(
      url('/api/v2/projects?limit=1'),
      { key: ADMIN_TOKEN },
    );
    expect(first.body.nextCursor).toBe(first.body.projects[0]!.projectId);
    const second = await request<{ projects: Array<{ projectId: string }> }>(
      url(`/api/v2/projects?limit=1&cursor=${first.body.nextCursor}`),
      { key: ADMIN_TOKEN },
    );
    expect(second.body.projects[0]!.projectId > first.body.nextCursor).toBe(true);
    // A project key is not the admin token: 403, not a wrong guess at it.
    expect((await request(url('/api/v2/projects'), { key: key() })).status).toBe(403);
    expect((await request(url('/api/v2/projects?limit=500'), { key: ADMIN_TOKEN })).status).toBe(400);
  });

  it('counts jobs per queue and state, and sums this process’s ingest counters', async () => {
    const queues = await request<{ queues: Array<{ name: string; counts: Record<string, number> }> }>(
      url('/api/v2/admin/queues'),
      { key: ADMIN_TOKEN },
    );
    expect(queues.status).toBe(200);
    expect(queues.body.queues.map((q) => q.name).sort()).toEqual(['embedding', 'enrichment', 'hygiene']);
    const enrichment = queues.body.queues.find((q) => q.name === 'enrichment')!;
    // Two sessions, each folded into one job; the completed one enqueued at once.
    expect(enrichment.counts.waiting! + enrichment.counts.delayed!).toBeGreaterThanOrEqual(1);

    const metrics = await request<{
      ingest: Record<string, number | null>;
      enrichment: Record<string, number | null>;
      uptimeSeconds: number;
    }>(url('/api/v2/admin/metrics'), { key: ADMIN_TOKEN });
    expect(metrics.status).toBe(200);
    expect(metrics.body.ingest.eventsAccepted).toBe(4);
    // This app runs no enrichment worker: its counters are not there to read.
    expect(metrics.body.enrichment.events).toBeNull();
    expect((await request(url('/api/v2/admin/queues'), { key: key() })).status).toBe(403);
    expect((await request(url('/api/v2/admin/metrics'))).status).toBe(401);
  });
});
