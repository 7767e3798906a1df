import { gzipSync } from 'node:zlib';
import { BrainApiModule } from '../../apps/brain-api/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { ADMIN_TOKEN } from '../support/test-app';
import { useTestApp } from '../support/use-test-app';

const ctx = useTestApp([IngestApiModule, BrainApiModule]);

const BATCH = JSON.stringify({
  sessionId: 'bodies',
  events: [{ eventId: 'b-1', type: 'prompt', timestamp: '2026-11-21T09:30:00Z', content: 'caf\u00e9' }],
});

/** Every route that reads a JSON body, with the credential it wants. */
const ROUTES: Array<[string, 'key' | 'admin']> = [
  ['/api/v2/events', 'key'],
  ['/api/v2/sessions/bodies/complete', 'key'],
  ['/api/v2/memory-items', 'key'],
  ['/api/v2/memory-items/bulk', 'key'],
  ['/api/v2/context-pack', 'key'],
  ['/api/v2/hygiene/runs', 'key'],
  ['/mcp', 'key'],
  ['/api/v2/projects', 'admin'],
];

async function post(path: string, who: 'key' | 'admin', body: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${ctx.server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${who === 'admin' ? ADMIN_TOKEN : ctx.project.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
}

describe('request bodies that are not plain UTF-8 JSON', () => {
  const latin1 = Buffer.from(BATCH, 'latin1');
  const cases: Array<[string, Buffer, Record<string, string>, number, string, RegExp]> = [
    ['Latin-1 bytes', latin1, {}, 400, 'MALFORMED_BODY', /not valid UTF-8/],
    ['gzip without Content-Encoding', gzipSync(BATCH), {}, 400, 'MALFORMED_BODY', /gzip-compressed/],
    [
      'Content-Encoding: gzip',
      gzipSync(BATCH),
      { 'content-encoding': 'gzip' },
      415,
      'UNSUPPORTED_CONTENT_ENCODING',
      /Content-Encoding gzip is not supported/,
    ],
    [
      'Content-Encoding: br',
      Buffer.from(BATCH),
      { 'content-encoding': 'br' },
      415,
      'UNSUPPORTED_CONTENT_ENCODING',
      /br/,
    ],
  ];

  it.each(cases)('%s: the same clear error on every JSON endpoint', async (_, body, headers, status, code, message) => {
    for (const [path, who] of ROUTES) {
      const res = await post(path, who, body, headers);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status, code });
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.message).not.toMatch(/Content-Length/);
    }
    const stored = await ctx.database.db.selectFrom('raw_events').select('event_id').execute();
    expect(stored).toEqual([]);
  });

  it('takes the same batch as UTF-8, with or without Content-Encoding: identity', async () => {
    const first = await post('/api/v2/events', 'key', Buffer.from(BATCH), { 'content-encoding': 'identity' });
    expect(first).toMatchObject({ status: 202, body: { accepted: 1 } });
    const row = await ctx.database.db.selectFrom('raw_events').select('content').executeTakeFirstOrThrow();
    expect(row.content).toBe('caf\u00e9');
  });
});
