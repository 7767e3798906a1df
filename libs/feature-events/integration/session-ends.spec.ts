import { EventsModule } from '@memex/feature-events';
import { event, request, type ErrorBody } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';

const ctx = useTestApp([EventsModule], { env: { ENRICHMENT_DEBOUNCE_MS: '60000' } });

const post = (body: unknown) => request(`${ctx.server.url}/api/v2/events`, { key: ctx.project.apiKey, body });

/** When the session first completed, where it ended and its newest event. */
const ends = (externalId: string) =>
  ctx.database.db
    .selectFrom('sessions')
    .select(['completed_at', 'ended_seq', 'last_event_seq'])
    .where('external_id', '=', externalId)
    .executeTakeFirstOrThrow();

/** `ended` on completing: the session is over, and a last turn left mid-work is read as it is. */
describe('POST /api/v2/sessions/:sessionId/complete with a body', () => {
  it('records where a session ended when told so, at its newest event, keeping when it first completed', async () => {
    const complete = (body: object) =>
      request(`${ctx.server.url}/api/v2/sessions/sess-ends/complete`, {
        key: ctx.project.apiKey,
        method: 'POST',
        body,
      });
    await post({ sessionId: 'sess-ends', events: [event(), event()] });
    expect((await complete({ ended: false })).status).toBe(202);
    const first = await ends('sess-ends');
    expect(first.ended_seq).toBeNull();
    expect((await complete({ ended: true })).status).toBe(202);
    expect(await ends('sess-ends')).toEqual({ ...first, ended_seq: first.last_event_seq });
    // Resumed and ended again: where it ended moves with it.
    await post({ sessionId: 'sess-ends', events: [event()] });
    await complete({ ended: true });
    expect(await ends('sess-ends')).toEqual({
      completed_at: first.completed_at,
      ended_seq: first.last_event_seq + 1,
      last_event_seq: first.last_event_seq + 1,
    });
  });

  it('completes without ending for a JSON null body, as for none', async () => {
    await post({ sessionId: 'sess-null-end', events: [event()] });
    const res = await request(`${ctx.server.url}/api/v2/sessions/sess-null-end/complete`, {
      key: ctx.project.apiKey,
      method: 'POST',
      raw: 'null',
    });
    expect(res.status).toBe(202);
    expect(await ends('sess-null-end')).toMatchObject({ completed_at: expect.any(Date), ended_seq: null });
  });

  it.each([
    ['a field it does not know', { done: true }],
    ['ended that is not a boolean', { ended: 'yes' }],
  ])('answers a body with %s with 400, naming the field, and completes nothing', async (_label, body) => {
    await post({ sessionId: 'sess-bad-end', events: [event()] });
    const res = await request(`${ctx.server.url}/api/v2/sessions/sess-bad-end/complete`, {
      key: ctx.project.apiKey,
      method: 'POST',
      body,
    });
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await ends('sess-bad-end')).toMatchObject({ completed_at: null, ended_seq: null });
  });
});
