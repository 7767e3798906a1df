import { EventsModule } from '@memex/feature-events';
import fc from 'fast-check';
import { EVENT_TYPES, INGEST_LIMITS, eventBatchSchema } from '@memex/domain';
import { request, type ErrorBody } from '../../../test/support/http';
import { useTestApp } from '../../../test/support/use-test-app';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);

const ctx = useTestApp([EventsModule]);

type Body = Record<string, unknown> & { events: Array<Record<string, unknown>> };

const validEvent = fc.record({
  eventId: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/),
  type: fc.constantFrom(...EVENT_TYPES),
  timestamp: fc.constant('2026-11-21T09:30:00Z'),
  content: fc.string({ maxLength: 200 }).filter((s) => !s.includes('\u0000')),
});
const validBatch: fc.Arbitrary<Body> = fc.record({
  sessionId: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/),
  events: fc.array(validEvent, { minLength: 1, maxLength: 5 }),
});

const wrongValue = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.double({ noNaN: true }),
);
const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = { k: value };
  return value;
};

/** Each mutation is certain to make a valid batch invalid. */
const mutations: Array<fc.Arbitrary<(b: Body) => unknown>> = [
  fc.constantFrom('sessionId', 'events').map((field) => (b: Body) => {
    const copy: Record<string, unknown> = { ...b };
    delete copy[field];
    return copy;
  }),
  fc
    .tuple(fc.constantFrom('eventId', 'type', 'timestamp', 'content'), fc.boolean())
    .map(([field, drop]) => (b: Body) => {
      const e: Record<string, unknown> = { ...b.events[0] };
      if (drop) delete e[field];
      else e[field] = 12345;
      return { ...b, events: [e, ...b.events.slice(1)] };
    }),
  wrongValue.map((v) => (b: Body) => ({ ...b, sessionId: v })),
  wrongValue.map((v) => (b: Body) => ({ ...b, events: v })),
  fc
    .string({ minLength: 1 })
    .filter((s) => !(EVENT_TYPES as readonly string[]).includes(s))
    .map((t) => (b: Body) => ({
      ...b,
      events: [{ ...b.events[0], type: t }],
    })),
  fc
    .constantFrom(
      'yesterday',
      '2026-11-21',
      '2026-02-30T00:00:00Z',
      '2026-11-21T25:00:00Z',
      '1700000000',
      '2026-11-21T09:30:00',
    )
    .map((t) => (b: Body) => ({ ...b, events: [{ ...b.events[0], timestamp: t }] })),
  fc.constantFrom('content', 'eventId').map((field) => (b: Body) => ({
    ...b,
    events: [{ ...b.events[0], [field]: `a\u0000b` }],
  })),
  fc.constant((b: Body) => ({ ...b, sessionId: 'bad\u0000id' })),
  fc.constant((b: Body) => ({ ...b, events: [{ ...b.events[0], metadata: { 'k\u0000': 1 } }] })),
  fc
    .string({ minLength: 1, maxLength: 10 })
    .filter((k) => !['sessionId', 'branch', 'events'].includes(k))
    .map((k) => (b: Body) => ({
      ...b,
      [k]: 1,
    })),
  fc.integer({ min: 1, max: 2000 }).map((extra) => (b: Body) => ({
    ...b,
    events: [{ ...b.events[0], content: 'x'.repeat(INGEST_LIMITS.maxContentBytes + extra) }],
  })),
  fc.constant((b: Body) => ({ ...b, events: [] })),
  fc.constant((b: Body) => ({
    ...b,
    events: Array.from({ length: INGEST_LIMITS.maxEventsPerBatch + 1 }, (_, i) => ({
      ...b.events[0],
      eventId: `e${i}`,
    })),
  })),
  fc.integer({ min: INGEST_LIMITS.maxMetadataDepth, max: 3000 }).map((depth) => (b: Body) => ({
    ...b,
    events: [{ ...b.events[0], metadata: nested(depth) }],
  })),
  fc
    .constantFrom(' spaced', '-leading', 'ünïcode', '', 'x'.repeat(201), 'a b', '../../etc/passwd')
    .map((id) => (b: Body) => ({
      ...b,
      events: [{ ...b.events[0], eventId: id }],
    })),
  wrongValue
    .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((v) => (b: Body) => ({
      ...b,
      events: [{ ...b.events[0], metadata: v }],
    })),
];

type Attack = { label: string; raw: string | Buffer; contentType?: string; key?: string | null };

const mutatedBatch: fc.Arbitrary<Attack> = fc
  .tuple(validBatch, fc.oneof(...mutations))
  .map(([b, mutate]) => ({ label: 'mutated batch', raw: JSON.stringify(mutate(b)) }));

const randomJson: fc.Arbitrary<Attack> = fc
  .jsonValue()
  .filter((v) => !eventBatchSchema.safeParse(v).success)
  .map((v) => ({ label: 'random JSON', raw: JSON.stringify(v) ?? 'null' }));

const randomText: fc.Arbitrary<Attack> = fc
  .string({ maxLength: 300 })
  .filter((s) => {
    try {
      return !eventBatchSchema.safeParse(JSON.parse(s)).success;
    } catch {
      return true;
    }
  })
  .map((s) => ({ label: 'random text', raw: s }));

const randomBytes: fc.Arbitrary<Attack> = fc
  .uint8Array({ minLength: 1, maxLength: 300 })
  .map((bytes) => ({ label: 'random bytes', raw: Buffer.from(bytes) }));

const prototypePollution: fc.Arbitrary<Attack> = fc
  .constantFrom(
    '{"sessionId":"s","events":[],"__proto__":{"admin":true}}',
    '{"sessionId":"s","events":[{"eventId":"e","type":"note","timestamp":"2026-11-21T09:30:00Z","content":"x","metadata":{"__proto__":{"polluted":1}}}]}',
    '{"sessionId":"s","constructor":{"prototype":{"polluted":1}},"events":[]}',
    `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
    `{"sessionId":"s","events":[${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}]}`,
  )
  .map((raw) => ({ label: 'hostile JSON', raw }));

const wrongMediaType: fc.Arbitrary<Attack> = fc
  .tuple(
    validBatch,
    fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ),
  )
  .map(([b, contentType]) => ({ label: `content type ${contentType}`, raw: JSON.stringify(b), contentType }));

const badKey: fc.Arbitrary<Attack> = fc
  .tuple(
    validBatch,
    fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 60 }).filter((s) => /^[\x21-\x7e]+$/.test(s)),
      fc.constant(`mx_${'Z'.repeat(43)}`),
    ),
  )
  .map(([b, k]) => ({ label: 'bad key', raw: JSON.stringify(b), key: k }));

const attack = fc.oneof(
  { arbitrary: mutatedBatch, weight: 6 },
  { arbitrary: randomJson, weight: 2 },
  { arbitrary: randomText, weight: 2 },
  { arbitrary: randomBytes, weight: 1 },
  { arbitrary: prototypePollution, weight: 1 },
  { arbitrary: wrongMediaType, weight: 1 },
  { arbitrary: badKey, weight: 1 },
);

describe('ingest fuzzing', () => {
  it(`answers ${RUNS} malformed or hostile bodies with a 4xx JSON error and stores nothing`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(attack, async (a) => {
        const res = await request<ErrorBody>(`${ctx.server.url}/api/v2/events`, {
          ...(a.key === null ? {} : { key: a.key ?? ctx.project.apiKey }),
          raw: a.raw,
          contentType: a.contentType ?? 'application/json',
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status < 400 || res.status >= 500)
          throw new Error(`${a.label} got ${res.status}: ${JSON.stringify(res.body)}`);
        expect(typeof res.body.error.code).toBe('string');
        expect(typeof res.body.error.message).toBe('string');
        expect(res.body.error.details).toEqual(expect.any(Object));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Every family of attack was seen: 400, 401, 413 and 415 at least.
    for (const status of [400, 401, 413, 415]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);

    const events = await ctx.database.db
      .selectFrom('raw_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const sessions = await ctx.database.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(0);
    expect(Number(sessions.n)).toBe(0);
  }, 120_000);

  it('stores hostile but valid text verbatim', async () => {
    const contents = [
      '\ud83d\ude00 emoji',
      "'; DROP TABLE raw_events; --",
      '\u202eright-to-left',
      'tab\tand\nnewline',
      '{"json": "inside"}',
    ];
    const res = await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: {
        sessionId: 'hostile-valid',
        events: contents.map((content, i) => ({
          eventId: `hv-${i}`,
          type: 'note',
          timestamp: '2026-11-21T09:30:00Z',
          content,
        })),
      },
    });
    expect(res.status).toBe(202);
    const rows = await ctx.database.db.selectFrom('raw_events').select('content').orderBy('seq').execute();
    expect(rows.map((r) => r.content)).toEqual(contents);
  });

  it('accepts any schema-valid batch, in any Unicode, and stores its text verbatim', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
    );
    const validBatchOf = fc
      .record({
        sessionId: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/),
        events: fc.uniqueArray(
          fc.record({
            eventId: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:/@+=-]{0,60}$/),
            type: fc.constantFrom(...EVENT_TYPES),
            timestamp: fc
              .date({
                min: new Date('1970-01-02T00:00:00Z'),
                max: new Date('9999-12-30T00:00:00Z'),
                noInvalidDate: true,
              })
              .map((d) => d.toISOString()),
            content: text,
            metadata: fc.option(
              fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }),
              { nil: undefined },
            ),
          }),
          { minLength: 1, maxLength: 8, selector: (e) => e.eventId },
        ),
      })
      .filter((b) => eventBatchSchema.safeParse(b).success);

    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(validBatchOf, { minLength: 1, maxLength: 4 }), async (batches) => {
        run += 1;
        // Event ids unique per run, so every event is new; several batches at once, as real clients send them.
        const tagged = batches.map((b, i) => ({
          ...b,
          sessionId: `${b.sessionId}-${run}-${i}`,
          events: b.events.map((e) => ({ ...e, eventId: `u${run}-${i}-${e.eventId}` })),
        }));
        const results = await Promise.all(
          tagged.map((b) => request(`${ctx.server.url}/api/v2/events`, { key: ctx.project.apiKey, body: b })),
        );
        for (const [i, r] of results.entries()) {
          if (r.status !== 202) throw new Error(`valid batch got ${r.status}: ${JSON.stringify(r.body)}`);
          expect(r.body).toEqual({ accepted: tagged[i]!.events.length, duplicates: 0 });
        }
        const sample = tagged[0]!.events[0]!;
        const row = await ctx.database.db
          .selectFrom('raw_events')
          .select('content')
          .where('event_id', '=', sample.eventId)
          .executeTakeFirstOrThrow();
        expect(row.content).toBe(sample.content);
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 6) },
    );
  }, 120_000);
});
