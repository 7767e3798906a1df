import { randomBytes } from 'node:crypto';
import { EventsModule } from '@memex/feature-events';
import { INGEST_LIMITS } from '@memex/domain';
import { event, request, type ErrorBody } from '../../../test/support/http';
import { storeEvents, storedEventsOf } from '../../../test/support/events';
import { ADMIN_TOKEN, startTestApp } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { itServerOnly } from '../../../test/support/mode';

const ctx = useTestApp([EventsModule], { env: { ENRICHMENT_DEBOUNCE_MS: '60000' } });

const post = (body: unknown, k: string | undefined = ctx.project.apiKey) =>
  request(`${ctx.server.url}/api/v2/events`, { key: k, body });

async function storedEventIds(sessionExternalId: string): Promise<string[]> {
  return (await storedEventsOf(ctx.database.db, sessionExternalId)).map((r) => r.event_id);
}

async function jobsFor(sessionExternalId: string) {
  const session = await ctx.database.db
    .selectFrom('sessions')
    .select('id')
    .where('external_id', '=', sessionExternalId)
    .executeTakeFirstOrThrow();
  const jobs = await ctx.queue.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
  return jobs.filter((j) => j.data.sessionId === session.id);
}

describe('POST /api/v2/events', () => {
  it('stores a batch, creates the session on first sight and enqueues an ids-only enrichment job', async () => {
    const events = [event({ type: 'prompt' }), event({ type: 'tool_call', metadata: { tool: 'Edit' } })];
    const res = await post({ sessionId: 'sess-first', branch: 'main', events });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 2, duplicates: 0 });

    expect(await storedEventIds('sess-first')).toEqual(events.map((e) => e.eventId));
    const session = await ctx.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('external_id', '=', 'sess-first')
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ project_id: ctx.project.projectId, branch: 'main', enrichment_cursor: 0 });
    expect(session.last_event_seq).toBeGreaterThan(0);

    const jobs = await jobsFor('sess-first');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.data).toEqual({ projectId: ctx.project.projectId, sessionId: session.id });
    expect(await jobs[0]?.getState()).toBe('delayed');
  });

  it('stores a repeated eventId within one batch once and counts the repeat as a duplicate', async () => {
    const e = event();
    const res = await post({ sessionId: 'sess-dup-in', events: [e, { ...e, content: 'changed' }, event()] });
    expect(res.body).toEqual({ accepted: 2, duplicates: 1 });
    expect(await storedEventIds('sess-dup-in')).toHaveLength(2);
    const row = await ctx.database.db
      .selectFrom('raw_events')
      .select('content')
      .where('event_id', '=', e.eventId as string)
      .executeTakeFirstOrThrow();
    expect(row.content).toBe(e.content);
  });

  it('never stores an eventId twice across batches, even when resent concurrently', async () => {
    const events = Array.from({ length: 50 }, () => event());
    const results = await Promise.all(Array.from({ length: 6 }, () => post({ sessionId: 'sess-dup-across', events })));
    for (const r of results) expect(r.status).toBe(202);
    const accepted = results.reduce((sum, r) => sum + (r.body as { accepted: number }).accepted, 0);
    const duplicates = results.reduce((sum, r) => sum + (r.body as { duplicates: number }).duplicates, 0);
    expect(accepted).toBe(50);
    expect(duplicates).toBe(250);
    expect(await storedEventIds('sess-dup-across')).toHaveLength(50);
    // The trigger left the session pointing at its newest event.
    const { last_event_seq, max } = await ctx.database.db
      .selectFrom('sessions')
      .innerJoin('raw_events', 'raw_events.session_id', 'sessions.id')
      .select((eb) => ['sessions.last_event_seq', eb.fn.max('raw_events.seq').as('max')])
      .where('sessions.external_id', '=', 'sess-dup-across')
      .groupBy('sessions.last_event_seq')
      .executeTakeFirstOrThrow();
    expect(last_event_seq).toBe(Number(max));
  });

  it('treats an eventId stored under another session of the project as a duplicate', async () => {
    const e = event();
    await post({ sessionId: 'sess-a', events: [e] });
    const res = await post({ sessionId: 'sess-b', events: [e] });
    expect(res.body).toEqual({ accepted: 0, duplicates: 1 });
  });

  it('collapses a burst of batches for one session into one job', async () => {
    for (let i = 0; i < 8; i += 1) {
      expect((await post({ sessionId: 'sess-burst', events: [event()] })).status).toBe(202);
    }
    expect(await storedEventIds('sess-burst')).toHaveLength(8);
    expect(await jobsFor('sess-burst')).toHaveLength(1);
  });

  it('does not enqueue for a batch made only of duplicates', async () => {
    // Stored without the HTTP path, so no enqueue (and no in-process memory of one) happened.
    const e = event();
    await storeEvents(ctx.server.app, ctx.project.projectId, 'sess-only-dups', [e as never]);
    const res = await post({ sessionId: 'sess-only-dups', events: [e] });
    expect(res.body).toEqual({ accepted: 0, duplicates: 1 });
    expect(await jobsFor('sess-only-dups')).toHaveLength(0);
  });

  itServerOnly(
    'collapses batches for one session arriving at two replicas into one job (Redis-side deduplication)',
    'replicas share one queue through Redis',
    async () => {
      const replica = await startTestApp([EventsModule], {
        DATABASE_URL: ctx.database.url,
        QUEUE_PREFIX: ctx.server.config.QUEUE_PREFIX,
        ENRICHMENT_DEBOUNCE_MS: '60000',
      });
      try {
        await post({ sessionId: 'sess-replicas', events: [event()] });
        const res = await request(`${replica.url}/api/v2/events`, {
          key: ctx.project.apiKey,
          body: { sessionId: 'sess-replicas', events: [event()] },
        });
        expect(res.body).toEqual({ accepted: 1, duplicates: 0 });
        expect(await jobsFor('sess-replicas')).toHaveLength(1);
      } finally {
        // The replica shares the prefix: closing it must not purge this file's queue keys.
        await replica.app.close();
      }
    },
  );

  it('refuses unpaired UTF-16 surrogates (PostgreSQL cannot store them) with 400, storing nothing', async () => {
    for (const body of [
      { sessionId: 'sess-surrogate', events: [event({ content: 'a\ud800b' })] },
      { sessionId: 'sess-surrogate', events: [event({ metadata: { note: '\udc00' } })] },
      { sessionId: 'sess-surrogate', branch: 'feature-\ud83d', events: [event()] },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((res.body as ErrorBody).error.message).toMatch(/unpaired surrogate/);
    }
    expect(await storedEventIds('sess-surrogate')).toEqual([]);
    const ok = await post({ sessionId: 'sess-surrogate', events: [event({ content: 'paired \ud83d\ude00 is fine' })] });
    expect(ok.status).toBe(202);
  });

  it('survives concurrent batches that insert the same event ids in opposite orders (deadlock retry)', async () => {
    const statuses: number[] = [];
    let accepted = 0;
    for (let round = 0; round < 20; round += 1) {
      const ids = Array.from({ length: 200 }, (_, i) => `order-${round}-${i}`);
      const results = await Promise.all([
        post({ sessionId: `sess-deadlock-a-${round}`, events: ids.map((eventId) => event({ eventId })) }),
        post({
          sessionId: `sess-deadlock-b-${round}`,
          events: [...ids].reverse().map((eventId) => event({ eventId })),
        }),
      ]);
      for (const r of results) {
        statuses.push(r.status);
        if (r.status === 202) accepted += (r.body as { accepted: number }).accepted;
      }
    }
    expect(statuses.filter((s) => s !== 202)).toEqual([]);
    expect(accepted).toBe(20 * 200);
  });

  it(`accepts ${INGEST_LIMITS.maxEventsPerBatch} events and refuses one more with 413, storing nothing`, async () => {
    const full = Array.from({ length: INGEST_LIMITS.maxEventsPerBatch }, () => event());
    const ok = await post({ sessionId: 'sess-500', events: full });
    expect(ok.status).toBe(202);
    expect(ok.body).toEqual({ accepted: 500, duplicates: 0 });

    const over = await post({ sessionId: 'sess-501', events: Array.from({ length: 501 }, () => event()) });
    expect(over.status).toBe(413);
    expect((over.body as ErrorBody).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((over.body as ErrorBody).error.message).toContain('events');
    expect(
      await ctx.database.db.selectFrom('sessions').select('id').where('external_id', '=', 'sess-501').execute(),
    ).toEqual([]);
  });

  it('accepts 100 KB of content and refuses one byte more with 413 naming the field', async () => {
    const ok = await post({
      sessionId: 'sess-size',
      events: [event({ content: 'x'.repeat(INGEST_LIMITS.maxContentBytes) })],
    });
    expect(ok.status).toBe(202);
    const over = await post({
      sessionId: 'sess-size',
      events: [event(), event({ content: 'x'.repeat(INGEST_LIMITS.maxContentBytes + 1) })],
    });
    expect(over.status).toBe(413);
    expect((over.body as ErrorBody).error.message).toMatch(/^events\[1\]\.content/);
    expect(await storedEventIds('sess-size')).toHaveLength(1);
  });

  it('refuses a body over 5 MB with 413', async () => {
    const events = Array.from({ length: 60 }, () => event({ content: 'y'.repeat(90 * 1024) }));
    const res = await post({ sessionId: 'sess-huge', events });
    expect(res.status).toBe(413);
    expect((res.body as ErrorBody).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await storedEventIds('sess-huge').catch(() => [])).toEqual([]);
  });

  it('rejects a whole batch when one event is invalid, naming the field, and stores none of it', async () => {
    const res = await post({ sessionId: 'sess-atomic', events: [event(), event({ type: 'telepathy' }), event()] });
    expect(res.status).toBe(400);
    const error = (res.body as ErrorBody).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/^events\[1\]\.type/);
    expect(error.details.issues).toEqual([expect.objectContaining({ path: 'events[1].type' })]);
    expect(
      await ctx.database.db.selectFrom('sessions').select('id').where('external_id', '=', 'sess-atomic').execute(),
    ).toEqual([]);
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      raw: '{"sessionId": "x", "events": [',
    });
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error.code).toBe('MALFORMED_JSON');
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      raw: 'sessionId=x',
      contentType: 'text/plain',
    });
    expect(res.status).toBe(415);
    expect((res.body as ErrorBody).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    ['no Authorization header', undefined],
    ['a key that does not exist', 'mx_' + 'A'.repeat(43)],
    ['something that is not a key', 'hunter2'],
  ])('answers 401 for %s', async (_label, k) => {
    const res = await request(`${ctx.server.url}/api/v2/events`, {
      ...(k === undefined ? {} : { key: k }),
      body: { sessionId: 'sess-auth', events: [event()] },
    });
    expect(res.status).toBe(401);
    expect((res.body as ErrorBody).error.code).toBe('UNAUTHORIZED');
  });
});

describe('POST /api/v2/sessions/:sessionId/complete', () => {
  it('enqueues the session at once, without the debounce delay', async () => {
    await post({ sessionId: 'sess-done', events: [event()] });
    for (const job of await jobsFor('sess-done')) await job.remove();

    const res = await request(`${ctx.server.url}/api/v2/sessions/sess-done/complete`, {
      key: ctx.project.apiKey,
      method: 'POST',
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ sessionId: 'sess-done', enqueued: true });
    const jobs = await jobsFor('sess-done');
    expect(jobs).toHaveLength(1);
    expect(await jobs[0]?.getState()).toBe('waiting');

    const session = await ctx.database.db
      .selectFrom('sessions')
      .select(['completed_at', 'ended_seq'])
      .where('external_id', '=', 'sess-done')
      .executeTakeFirstOrThrow();
    expect(session.completed_at).toBeInstanceOf(Date);
    // Completed at a turn's end, not ended: more of the session may come.
    expect(session.ended_seq).toBeNull();
  });

  it('completing twice with nothing new adds no second job', async () => {
    await request(`${ctx.server.url}/api/v2/sessions/sess-done/complete`, { key: ctx.project.apiKey, method: 'POST' });
    expect(await jobsFor('sess-done')).toHaveLength(1);
  });

  it('completes a session whose id is the longest allowed, with slashes encoded in the path', async () => {
    const id = `a/${'b'.repeat(198)}`;
    await post({ sessionId: id, events: [event()] });
    const res = await request(`${ctx.server.url}/api/v2/sessions/${encodeURIComponent(id)}/complete`, {
      key: ctx.project.apiKey,
      method: 'POST',
    });
    expect(res).toMatchObject({ status: 202, body: { sessionId: id, enqueued: true } });
  });

  it.each([
    ['a malformed percent-encoding', '%E0%A4%A', 400],
    ['an id past the longest allowed', 'c'.repeat(300), 400],
  ])('answers %s with a JSON error', async (_label, segment, status) => {
    const res = await request(`${ctx.server.url}/api/v2/sessions/${segment}/complete`, {
      key: ctx.project.apiKey,
      method: 'POST',
    });
    expect(res.status).toBeGreaterThanOrEqual(status);
    expect(res.status).toBeLessThan(500);
    expect((res.body as ErrorBody).error).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      details: {},
    });
  });

  it('answers 404 for a session the project does not have', async () => {
    const res = await request(`${ctx.server.url}/api/v2/sessions/never-seen/complete`, {
      key: ctx.project.apiKey,
      method: 'POST',
    });
    expect(res.status).toBe(404);
    expect((res.body as ErrorBody).error.code).toBe('SESSION_NOT_FOUND');
  });

  it('answers 401 without a key', async () => {
    const res = await request(`${ctx.server.url}/api/v2/sessions/sess-done/complete`, { method: 'POST' });
    expect(res.status).toBe(401);
  });
});

describe('redaction on ingest', () => {
  it('stores content, metadata and branch with secrets replaced, counted by project and rule', async () => {
    const token = `ghp_${randomBytes(18).toString('hex')}`;
    const password = `Pw-${randomBytes(6).toString('hex')}`;
    const before = await redactionCount('github-token');
    const res = await post({
      sessionId: 'sess-secret',
      branch: `fix/${token}`,
      events: [
        event({ content: `export GH_TOKEN=${token} and postgres://app:${password}@db/app` }),
        event({
          type: 'tool_call',
          metadata: { tool: 'Bash', input: { command: `gh auth login --with-token ${token}` } },
        }),
      ],
    });
    expect(res.status).toBe(202);
    const rows = await storedEventsOf(ctx.database.db, 'sess-secret');
    expect(rows.map((r) => r.content)).toEqual([
      'export GH_TOKEN=[REDACTED:github-token] and postgres://app:[REDACTED:password]@db/app',
      expect.any(String),
    ]);
    expect(rows[1]!.metadata).toEqual({
      tool: 'Bash',
      input: { command: 'gh auth login --with-token [REDACTED:github-token]' },
    });
    expect(rows[0]!.branch).toBe('fix/[REDACTED:github-token]');
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(password);
    expect((await redactionCount('github-token')) - before).toBe(3);
  });
});

async function redactionCount(rule: string): Promise<number> {
  const text = (await request<string>(`${ctx.server.url}/metrics`, { key: ADMIN_TOKEN })).body;
  const line = text.split('\n').find((l) => l.startsWith(`memex_redactions_total{rule="${rule}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}
