import { IngestApiModule } from '../../apps/ingest-api/src';
import { ProjectRepository } from '@memex/db';
import { event, request } from '../support/http';
import { databaseEnv, startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let server: TestApp;
let a: { projectId: string; apiKey: string };
let b: { projectId: string; apiKey: string };

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestApp([IngestApiModule], databaseEnv(database));
  const projects = server.app.get(ProjectRepository);
  a = await projects.createWithKey('a');
  b = await projects.createWithKey('b');
});

afterAll(async () => {
  await server.close();
  await database.drop();
});

describe('project isolation', () => {
  it('keeps the same session and event ids apart in two projects', async () => {
    const events = [event({ eventId: 'shared-1' }), event({ eventId: 'shared-2' })];
    const ra = await request(`${server.url}/api/v2/events`, { key: a.apiKey, body: { sessionId: 'same', events } });
    const rb = await request(`${server.url}/api/v2/events`, { key: b.apiKey, body: { sessionId: 'same', events } });
    expect(ra.body).toEqual({ accepted: 2, duplicates: 0 });
    expect(rb.body).toEqual({ accepted: 2, duplicates: 0 });

    const sessions = await database.db
      .selectFrom('sessions')
      .select(['id', 'project_id'])
      .where('external_id', '=', 'same')
      .execute();
    expect(new Set(sessions.map((s) => s.project_id))).toEqual(new Set([a.projectId, b.projectId]));
    for (const s of sessions) {
      const rows = await database.db
        .selectFrom('raw_events')
        .select(['project_id'])
        .where('session_id', '=', s.id)
        .execute();
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.project_id === s.project_id)).toBe(true);
    }
  });

  it("does not let one project complete another's session", async () => {
    await request(`${server.url}/api/v2/events`, { key: a.apiKey, body: { sessionId: 'only-a', events: [event()] } });
    const res = await request(`${server.url}/api/v2/sessions/only-a/complete`, { key: b.apiKey, method: 'POST' });
    expect(res.status).toBe(404);
    const session = await database.db
      .selectFrom('sessions')
      .select('completed_at')
      .where('external_id', '=', 'only-a')
      .executeTakeFirstOrThrow();
    expect(session.completed_at).toBeNull();
  });

  it("does not count another project's event ids as duplicates", async () => {
    await request(`${server.url}/api/v2/events`, {
      key: a.apiKey,
      body: { sessionId: 'x', events: [event({ eventId: 'only-once' })] },
    });
    const res = await request(`${server.url}/api/v2/events`, {
      key: b.apiKey,
      body: { sessionId: 'x', events: [event({ eventId: 'only-once' })] },
    });
    expect(res.body).toEqual({ accepted: 1, duplicates: 0 });
  });
});
