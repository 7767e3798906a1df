import { EVENT_TYPES, INGEST_LIMITS, eventBatchSchema, rawEventInputSchema } from './raw-event';

type Obj = Record<string, unknown>;

function validEvent(overrides: Obj = {}): Obj {
  return {
    eventId: 'evt-1',
    type: 'prompt',
    timestamp: '2026-11-21T09:30:00Z',
    content: 'Refactor the auth middleware',
    ...overrides,
  };
}

function validBatch(overrides: Obj = {}): Obj {
  return { sessionId: 'session-1', events: [validEvent()], ...overrides };
}

const events = (n: number) => Array.from({ length: n }, (_, i) => validEvent({ eventId: `evt-${i}` }));

function issuePaths(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }): string[] {
  return [...new Set((result.error?.issues ?? []).map((i) => i.path.join('.')))];
}

function expectEventAccepted(overrides: Obj): void {
  const result = rawEventInputSchema.safeParse(validEvent(overrides));
  expect(issuePaths(result)).toEqual([]);
  expect(result.success).toBe(true);
}

function expectEventRejected(overrides: Obj, field: string): void {
  const result = rawEventInputSchema.safeParse(validEvent(overrides));
  expect(result.success).toBe(false);
  expect(issuePaths(result)).toEqual([field]);
}

/** An object nested `levels` objects deep, the innermost empty: jsonShape depth === levels. */
function nestedObjects(levels: number): Obj {
  let value: Obj = {};
  for (let i = 1; i < levels; i++) value = { k: value };
  return value;
}

describe('eventBatchSchema', () => {
  it('accepts a minimal batch and keeps its values', () => {
    expect(eventBatchSchema.parse(validBatch())).toEqual(validBatch());
  });

  describe('events', () => {
    it('accepts 1 event', () =>
      expect(eventBatchSchema.safeParse(validBatch({ events: events(1) })).success).toBe(true));
    it('accepts 500 events', () => {
      expect(INGEST_LIMITS.maxEventsPerBatch).toBe(500);
      const result = eventBatchSchema.safeParse(validBatch({ events: events(500) }));
      expect(result.success).toBe(true);
    });
    it('rejects 501 events as too big', () => {
      const result = eventBatchSchema.safeParse(validBatch({ events: events(501) }));
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'too_big', path: ['events'] })]);
    });
    it('rejects 0 events', () => {
      const result = eventBatchSchema.safeParse(validBatch({ events: [] }));
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'too_small', path: ['events'] })]);
    });
    it('rejects a missing events array', () => {
      expect(eventBatchSchema.safeParse({ sessionId: 'session-1' }).success).toBe(false);
    });
    it('reports the index of a bad event', () => {
      const list = events(5);
      list[3] = validEvent({ type: 'bogus' });
      expect(issuePaths(eventBatchSchema.safeParse(validBatch({ events: list })))).toEqual(['events.3.type']);
    });
  });

  describe('sessionId', () => {
    const check = (sessionId: unknown) => eventBatchSchema.safeParse(validBatch({ sessionId }));
    it('accepts 200 characters', () => expect(check('s'.repeat(200)).success).toBe(true));
    it('rejects 201 characters', () => expect(issuePaths(check('s'.repeat(201)))).toEqual(['sessionId']));
    it.each(['', 'a b', '-abc', '.abc', 'a\u0000b', 'a\nb', 'é'])('rejects %j', (id) =>
      expect(issuePaths(check(id))).toEqual(['sessionId']),
    );
  });

  describe('branch', () => {
    const check = (branch: unknown) => eventBatchSchema.safeParse(validBatch({ branch }));
    it('is optional', () => expect(check(undefined).success).toBe(true));
    it('accepts 1 character', () => expect(check('m').success).toBe(true));
    it('accepts 255 characters', () => expect(check('b'.repeat(255)).success).toBe(true));
    it('rejects 256 characters', () => expect(issuePaths(check('b'.repeat(256)))).toEqual(['branch']));
    it('rejects empty', () => expect(issuePaths(check(''))).toEqual(['branch']));
    it('rejects NUL', () => expect(issuePaths(check('main\u0000'))).toEqual(['branch']));
    it('accepts slashes and spaces', () => expect(check('feature/my branch').success).toBe(true));
  });

  it('rejects an unknown top-level key (strict)', () => {
    const result = eventBatchSchema.safeParse(validBatch({ projectId: 'p' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['projectId'] })]);
  });
});

describe('rawEventInputSchema', () => {
  it('rejects an unknown key (strict)', () => {
    const result = rawEventInputSchema.safeParse(validEvent({ seq: 1 }));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['seq'] })]);
  });

  describe('type', () => {
    it('lists the nine event types', () => {
      expect([...EVENT_TYPES].sort()).toEqual(
        ['command', 'commit', 'error', 'file_edit', 'note', 'prompt', 'response', 'tool_call', 'tool_result'].sort(),
      );
    });
    it.each(['prompt', 'response', 'tool_call', 'tool_result', 'file_edit', 'command', 'commit', 'error', 'note'])(
      'accepts %s',
      (type) => expectEventAccepted({ type }),
    );
    it.each(['bogus', 'Prompt', 'tool-call', ''])('rejects %j', (type) => expectEventRejected({ type }, 'type'));
  });

  describe('eventId', () => {
    it('accepts 200 characters', () => expectEventAccepted({ eventId: 'e'.repeat(200) }));
    it('rejects 201 characters', () => expectEventRejected({ eventId: 'e'.repeat(201) }, 'eventId'));
    it('accepts every allowed punctuation', () => expectEventAccepted({ eventId: '0a.b_c:d/e@f+g=h-i' }));
    it.each(['', 'evt 1', '-evt', '_evt', 'evt#1', 'evt?x', 'a\u0000b'])('rejects %j', (eventId) =>
      expectEventRejected({ eventId }, 'eventId'),
    );
  });

  describe('timestamp', () => {
    it.each([
      '2026-11-21T09:30:00Z',
      '2026-11-21T09:30:00.123+02:00',
      '2026-11-21T09:30:00.123456789Z',
      '2026-11-21T09:30:00-05:30',
      '2024-02-29T00:00:00Z',
    ])('accepts %s', (timestamp) => expectEventAccepted({ timestamp }));
    it.each([
      ['Feb 29 in a non-leap year', '2023-02-29T00:00:00Z'],
      ['Feb 30', '2024-02-30T00:00:00Z'],
      ['month 13', '2026-13-01T00:00:00Z'],
      ['hour 24', '2026-11-21T24:00:00Z'],
      ['a space instead of T', '2026-11-21 09:30:00Z'],
      ['no zone', '2026-11-21T09:30:00'],
      ['a date only', '2026-11-21'],
      ['epoch millis as a string', '1763717400000'],
    ])('rejects %s', (_label, timestamp) => expectEventRejected({ timestamp }, 'timestamp'));
    it('rejects a number', () => expectEventRejected({ timestamp: 1763717400000 }, 'timestamp'));
  });

  describe('content', () => {
    const max = 102_400;
    it('limits content to 100 KiB', () => expect(INGEST_LIMITS.maxContentBytes).toBe(max));
    it('accepts an empty string', () => expectEventAccepted({ content: '' }));
    it('accepts exactly 102,400 ASCII bytes', () => expectEventAccepted({ content: 'a'.repeat(max) }));
    it('rejects 102,401 ASCII bytes as too big', () => {
      const result = rawEventInputSchema.safeParse(validEvent({ content: 'a'.repeat(max + 1) }));
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ code: 'too_big', path: ['content'], maximum: max }),
      ]);
    });
    it('accepts 51,200 × "é" (102,400 bytes)', () => {
      const content = 'é'.repeat(max / 2);
      expect(Buffer.byteLength(content, 'utf8')).toBe(max);
      expectEventAccepted({ content });
    });
    it('rejects 51,200 × "é" + "a" (102,401 bytes, only 51,201 characters)', () => {
      const content = 'é'.repeat(max / 2) + 'a';
      expect(content.length).toBeLessThan(max);
      expectEventRejected({ content }, 'content');
    });
    it('counts a 4-byte emoji as 4 bytes', () => {
      expectEventAccepted({ content: '😀'.repeat(max / 4) });
      expectEventRejected({ content: '😀'.repeat(max / 4) + 'a' }, 'content');
    });
    it('rejects NUL', () => expectEventRejected({ content: 'before\u0000after' }, 'content'));
    it('rejects a non-string', () => expectEventRejected({ content: 42 }, 'content'));
  });

  describe('metadata', () => {
    it('is optional', () => expectEventAccepted({ metadata: undefined }));
    it('accepts a flat object', () => expectEventAccepted({ metadata: { tool: 'Edit', exitCode: 0, ok: true } }));
    it('rejects an array', () => expectEventRejected({ metadata: [1, 2] }, 'metadata'));
    it('rejects null', () => expectEventRejected({ metadata: null }, 'metadata'));

    // jsonShape counts the metadata object as level 1 and every value under it, leaves included, one deeper.
    it('accepts 8 nested objects (depth 8)', () => expectEventAccepted({ metadata: nestedObjects(8) }));
    it('rejects 9 nested objects (depth 9)', () => expectEventRejected({ metadata: nestedObjects(9) }, 'metadata'));
    it('accepts a leaf value at depth 8', () => {
      const inner = nestedObjects(7);
      let cursor: Obj = inner;
      while (cursor.k) cursor = cursor.k as Obj;
      cursor.leaf = 'x';
      expectEventAccepted({ metadata: inner });
    });
    it('rejects a leaf value at depth 9', () => {
      const inner = nestedObjects(8);
      let cursor: Obj = inner;
      while (cursor.k) cursor = cursor.k as Obj;
      cursor.leaf = 'x';
      expectEventRejected({ metadata: inner }, 'metadata');
    });
    it('counts arrays and their items as levels', () => {
      const wrap = (arrays: number): unknown => {
        let value: unknown = 'x';
        for (let i = 0; i < arrays; i++) value = [value];
        return value;
      };
      // object (1) → six arrays (2–7) → 'x' (8)
      expectEventAccepted({ metadata: { a: wrap(6) } });
      // object (1) → seven arrays (2–8) → 'x' (9)
      expectEventRejected({ metadata: { a: wrap(7) } }, 'metadata');
    });

    // {"k":"…"} is 8 bytes of JSON around the value.
    it('accepts exactly 16 KiB of serialized JSON', () => {
      const metadata = { k: 'a'.repeat(16 * 1024 - 8) };
      expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(16 * 1024);
      expectEventAccepted({ metadata });
    });
    it('rejects 16 KiB + 1 byte of serialized JSON as too big', () => {
      const result = rawEventInputSchema.safeParse(validEvent({ metadata: { k: 'a'.repeat(16 * 1024 - 7) } }));
      expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'too_big', path: ['metadata'] })]);
    });
    it('counts serialized bytes, not characters', () => {
      expectEventRejected({ metadata: { k: 'é'.repeat(8 * 1024) } }, 'metadata');
    });
    it.each([
      ['a top-level value', { k: 'a\u0000' }],
      ['a top-level key', { 'a\u0000': 'v' }],
      ['a nested value', { a: { b: ['ok', 'x\u0000y'] } }],
      ['a nested key', { a: { 'b\u0000': 1 } }],
    ])('rejects NUL in %s', (_label, metadata) => expectEventRejected({ metadata }, 'metadata'));
  });
});
