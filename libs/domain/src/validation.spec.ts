import { z } from 'zod';
import { DomainError } from './domain-error';
import { eventBatchSchema, isBatchSizeIssue } from './raw-event';
import { formatPath, parseOrThrow, toValidationIssues } from './validation';

type Obj = Record<string, unknown>;

const event = (i: number, overrides: Obj = {}): Obj => ({
  eventId: `evt-${i}`,
  type: 'note',
  timestamp: '2026-11-21T09:30:00Z',
  content: 'hello',
  ...overrides,
});
const batch = (events: Obj[]): Obj => ({ sessionId: 'session-1', events });
const events = (n: number) => Array.from({ length: n }, (_, i) => event(i));
const withEvent = (n: number, index: number, overrides: Obj) => {
  const list = events(n);
  list[index] = event(index, overrides);
  return batch(list);
};

function caught(input: unknown, tooLarge: (issue: z.core.$ZodIssue) => boolean = isBatchSizeIssue): DomainError {
  try {
    parseOrThrow(eventBatchSchema, input, tooLarge);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return e as DomainError;
  }
  throw new Error('parseOrThrow did not throw');
}

const issuePaths = (error: DomainError) => (error.details.issues as Array<{ path: string }>).map((issue) => issue.path);

describe('parseOrThrow with isBatchSizeIssue', () => {
  it('returns the parsed batch when valid', () => {
    const input = batch(events(2));
    expect(parseOrThrow(eventBatchSchema, input, isBatchSizeIssue)).toEqual(input);
  });

  it('answers 413 for too many events', () => {
    const error = caught(batch(events(501)));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/^events: /);
    expect(issuePaths(error)).toEqual(['events']);
  });

  it('answers 413 for oversized content and names its path', () => {
    const error = caught(withEvent(5, 3, { content: 'a'.repeat(100 * 1024 + 1) }));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.status).toBe(413);
    expect(error.message).toBe('events[3].content: must be at most 102400 bytes of UTF-8');
    expect(issuePaths(error)).toEqual(['events[3].content']);
  });

  it('answers 413 for oversized metadata', () => {
    const error = caught(withEvent(3, 2, { metadata: { k: 'a'.repeat(16 * 1024) } }));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/^events\[2\]\.metadata: /);
  });

  it('answers 400 for a wrong type and names its path', () => {
    const error = caught(withEvent(5, 3, { type: 'bogus' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^events\[3\]\.type: /);
    expect(issuePaths(error)).toEqual(['events[3].type']);
  });

  it('answers 400 for content of the wrong JSON type', () => {
    const error = caught(withEvent(4, 3, { content: 123 }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/^events\[3\]\.content: /);
  });

  it.each([
    ['no events', batch([]), 'events'],
    ['NUL in content', withEvent(2, 1, { content: 'a\u0000' }), 'events[1].content'],
    ['a bad timestamp', withEvent(2, 0, { timestamp: '2023-02-29T00:00:00Z' }), 'events[0].timestamp'],
    ['a missing sessionId', { events: events(1) }, 'sessionId'],
  ])('answers 400 for %s', (_label, input, path) => {
    const error = caught(input);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.message.startsWith(`${path}: `)).toBe(true);
  });

  it('names the whole body when it is not an object', () => {
    const error = caught(null);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/^\(body\): /);
    expect(issuePaths(error)).toEqual(['(body)']);
  });

  it('lists every issue path in details.issues', () => {
    const list = events(5);
    list[1] = event(1, { type: 'bogus' });
    list[3] = event(3, { timestamp: 'yesterday' });
    const error = caught({ ...batch(list), extra: true });
    expect(issuePaths(error).sort()).toEqual(['(body)', 'events[1].type', 'events[3].timestamp'].sort());
    for (const issue of error.details.issues as Array<Record<string, unknown>>) {
      expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
      expect(typeof issue.message).toBe('string');
    }
  });

  it('answers 413 when any issue is a size limit, even beside a type error', () => {
    const list = events(4);
    list[0] = event(0, { type: 'bogus' });
    list[3] = event(3, { content: 'a'.repeat(100 * 1024 + 1) });
    const error = caught(batch(list));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(issuePaths(error)).toEqual(['events[0].type', 'events[3].content']);
  });

  it('answers 400 for size issues when no tooLarge predicate is given', () => {
    let error: unknown;
    try {
      parseOrThrow(eventBatchSchema, batch(events(501)));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
  });
});

describe('isBatchSizeIssue', () => {
  const issues = (input: unknown) => eventBatchSchema.safeParse(input).error?.issues ?? [];

  it.each([
    ['too many events', batch(events(501))],
    ['oversized content', withEvent(1, 0, { content: 'a'.repeat(100 * 1024 + 1) })],
    ['oversized metadata', withEvent(1, 0, { metadata: { k: 'a'.repeat(16 * 1024) } })],
  ])('is true for %s', (_label, input) => {
    const found = issues(input);
    expect(found).toHaveLength(1);
    expect(found.map(isBatchSizeIssue)).toEqual([true]);
  });

  it.each([
    ['no events', batch([])],
    ['a wrong type', withEvent(1, 0, { type: 'bogus' })],
    ['NUL in content', withEvent(1, 0, { content: '\u0000' })],
    [
      'metadata nested too deep',
      withEvent(1, 0, { metadata: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } } }),
    ],
  ])('is false for %s', (_label, input) => {
    const found = issues(input);
    expect(found.length).toBeGreaterThan(0);
    expect(found.some(isBatchSizeIssue)).toBe(false);
  });
});

describe('formatPath', () => {
  it.each([
    [['events', 3, 'content'], 'events[3].content'],
    [['events'], 'events'],
    [['events', 0, 'metadata', 'a', 'b'], 'events[0].metadata.a.b'],
    [['a', 0, 1], 'a[0][1]'],
    [[0, 'a'], '[0].a'],
    [[], '(body)'],
  ])('formats %j as %s', (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});

describe('toValidationIssues', () => {
  it('maps each zod issue to path, code and message', () => {
    const result = z.strictObject({ a: z.array(z.number()) }).safeParse({ a: [1, 'x'] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(toValidationIssues(result.error)).toEqual([
      { path: 'a[1]', code: 'invalid_type', message: expect.any(String) },
    ]);
  });
});

describe('DomainError', () => {
  it('carries code, status, message and details', () => {
    const error = new DomainError('PAYLOAD_TOO_LARGE', 'too big', { issues: [] });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DomainError');
    expect(error.status).toBe(413);
    expect(error.message).toBe('too big');
    expect(error.details).toEqual({ issues: [] });
    expect(new DomainError('VALIDATION_FAILED', 'bad').status).toBe(400);
    expect(new DomainError('VALIDATION_FAILED', 'bad').details).toEqual({});
  });
});
