import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { hashApiKey } from '@memex/domain';
import { event, request, type ErrorBody } from '../support/http';
import { ADMIN_TOKEN, databaseEnv, startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let server: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestApp([IngestApiModule, BrainApiModule], databaseEnv(database));
});

afterAll(async () => {
  await server.close();
  await database.drop();
});

/** `null` sends no Authorization header at all. */
const create = (body: unknown, token: string | null = ADMIN_TOKEN) =>
  request<{ projectId: string; apiKey: string }>(`${server.url}/api/v2/projects`, {
    ...(token === null ? {} : { key: token }),
    body,
  });

describe('POST /api/v2/projects', () => {
  it('creates a project whose key works at once and is stored only as a hash', async () => {
    const res = await create({ name: 'web-app' });
    expect(res.status).toBe(201);
    expect(res.body.projectId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.body.apiKey).toMatch(/^mx_/);

    const keys = await database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('project_id', '=', res.body.projectId)
      .execute();
    expect(keys).toHaveLength(1);
    expect(keys[0]?.key_hash).toBe(hashApiKey(res.body.apiKey));
    expect(JSON.stringify(keys)).not.toContain(res.body.apiKey);

    const post = await request(`${server.url}/api/v2/events`, {
      key: res.body.apiKey,
      body: { sessionId: 's1', events: [event()] },
    });
    expect(post.status).toBe(202);
  });

  it('gives every project its own key', async () => {
    const a = await create({ name: 'a' });
    const b = await create({ name: 'a' });
    expect(a.body.projectId).not.toBe(b.body.projectId);
    expect(a.body.apiKey).not.toBe(b.body.apiKey);
  });

  it.each([
    ['no token', null],
    ['a wrong token', 'not-the-admin-token'],
  ])('answers 401 for %s', async (_label, token) => {
    const res = await create({ name: 'x' }, token);
    expect(res.status).toBe(401);
    expect((res.body as unknown as ErrorBody).error.code).toBe('UNAUTHORIZED');
  });

  it('does not take a project key as the admin token: 403, not a wrong guess at it', async () => {
    const project = await create({ name: 'p' });
    const refused = await create({ name: 'x' }, project.body.apiKey);
    expect(refused.status).toBe(403);
    expect((refused.body as unknown as ErrorBody).error.code).toBe('FORBIDDEN');
    // A key no project has is still a failed key: 401.
    expect((await create({ name: 'x' }, `mx_${'0'.repeat(43)}`)).status).toBe(401);
  });

  it.each([
    [{}, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 'ok', extra: 1 }, '(body)'],
    [{ name: 42 }, 'name'],
  ])('answers 400 for %j', async (body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect((res.body as unknown as ErrorBody).error.message.startsWith(field)).toBe(true);
  });
});

describe('with MEMEX_ADMIN_TOKEN unset', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await startTestApp([IngestApiModule, BrainApiModule], {
      ...databaseEnv(database),
      MEMEX_ADMIN_TOKEN: undefined,
    });
  });
  afterAll(() => closed.close());

  it('disables operator endpoints with 403, whatever token is sent', async () => {
    for (const token of [undefined, ADMIN_TOKEN, '']) {
      const res = await request(`${closed.url}/api/v2/projects`, {
        ...(token === undefined ? {} : { key: token }),
        body: { name: 'x' },
      });
      expect(res.status).toBe(403);
      expect((res.body as ErrorBody).error.code).toBe('ADMIN_DISABLED');
    }
  });
});
