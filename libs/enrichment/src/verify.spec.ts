import { type EvidenceSpan } from '@memex/domain';
import { candidateItemSchema, type CandidateItem, type EngineEvent } from './candidate';
import { EvidenceIndex, MIN_QUOTE_LENGTH } from './verify';

const KYSELY = 'We decided to use Kysely for all database access from now on.';
const REDIS = 'The job queue runs on Redis through BullMQ with three retries.';

function event(eventId: string, content: string): EngineEvent {
  return { seq: 1, eventId, type: 'prompt', timestamp: new Date('2026-11-21T09:30:00Z'), content, metadata: null };
}

function item(evidence: EvidenceSpan[]): CandidateItem {
  return candidateItemSchema.parse({
    type: 'Decision',
    title: 'Use Kysely for database access',
    facts: 'Queries go through Kysely.',
    schemaKey: 'root/decisions',
    dedupHint: 'decision:db:kysely',
    importance: 4,
    confidence: 0.9,
    evidence,
  });
}

const index = new EvidenceIndex([event('evt-1', KYSELY), event('evt-2', REDIS)]);

function verifyOne(eventId: string, quote: string) {
  return index.verify(item([{ eventId, quote }]));
}

/** A one-span item is accepted, its span holding the quote as verified (`verified`: whitespace collapsed). */
function expectAccepted(eventId: string, quote: string, verified = quote) {
  expect(verifyOne(eventId, quote)).toEqual({
    ok: true,
    item: expect.anything(),
    spans: [{ eventId, quote: verified }],
  });
}

function expectRefused(eventId: string, quote: string, reason: string) {
  expect(verifyOne(eventId, quote)).toMatchObject({ ok: false, reason });
}

describe('EvidenceIndex.verify', () => {
  describe('quote length', () => {
    it('is 12 characters at minimum', () => {
      expect(MIN_QUOTE_LENGTH).toBe(12);
    });

    it('accepts a verbatim quote of exactly 12 characters', () => {
      const quote = KYSELY.slice(3, 15);
      expect(quote).toHaveLength(12);
      expectAccepted('evt-1', quote);
    });

    it('rejects a verbatim quote of 11 characters', () => {
      const quote = KYSELY.slice(3, 14);
      expect(quote).toHaveLength(11);
      expectRefused('evt-1', quote, 'no-verified-span');
    });

    it('measures the length after whitespace normalization', () => {
      // 18 characters as written, exactly 12 once whitespace is collapsed: accepted.
      const long = '\n decided\t\tto   u ';
      expect(long).toHaveLength(18);
      expectAccepted('evt-1', long, 'decided to u');
      // 12 characters as written, only 11 once whitespace is collapsed: rejected.
      const short = 'ecided  to u';
      expect(short).toHaveLength(12);
      expectRefused('evt-1', short, 'no-verified-span');
    });
  });

  describe('whitespace', () => {
    it('accepts a quote whose newlines, tabs and runs of spaces stand for single spaces in the event', () => {
      expectAccepted('evt-1', 'use\n\tKysely   for all\r\n database', 'use Kysely for all database');
    });

    it('accepts a single-spaced quote of an event written with newlines and tabs', () => {
      const messy = new EvidenceIndex([event('evt-9', 'Never\n\n\tcall   the billing API\tfrom the browser.')]);
      const result = messy.verify(item([{ eventId: 'evt-9', quote: 'call the billing API from the browser' }]));
      expect(result.ok).toBe(true);
    });
  });

  describe('exactness', () => {
    it('rejects a quote with one character changed', () => {
      expect(verifyOne('evt-1', 'use Kysely for all database access')).toMatchObject({ ok: true });
      expectRefused('evt-1', 'use Kysely for all databese access', 'no-verified-span');
    });

    it('is case sensitive', () => {
      expectRefused('evt-1', 'use kysely for all database access', 'no-verified-span');
    });

    it('rejects a quote that stands in a different event of the batch than the one it names', () => {
      expectRefused('evt-2', 'use Kysely for all database access', 'no-verified-span');
    });
  });

  describe('events outside the batch', () => {
    it('rejects the whole item when one span cites an event not in the batch, even if another verifies', () => {
      const result = index.verify(
        item([
          { eventId: 'evt-1', quote: 'use Kysely for all database access' },
          { eventId: 'evt-404', quote: 'use Kysely for all database access' },
        ]),
      );
      expect(result).toMatchObject({ ok: false, reason: 'event-outside-batch' });
      expect(!result.ok && result.detail).toContain('evt-404');
    });

    it('rejects an item citing only unknown events as outside the batch, not as unverified', () => {
      expectRefused('evt-3', 'use Kysely for all database access', 'event-outside-batch');
    });
  });

  describe('several spans', () => {
    it('accepts an item when one of several spans verifies and returns only that span', () => {
      const candidate = item([
        { eventId: 'evt-1', quote: 'we picked Prisma after all' },
        { eventId: 'evt-2', quote: 'through BullMQ with three retries' },
        { eventId: 'evt-1', quote: 'Kysely' },
      ]);
      const result = index.verify(candidate);
      expect(result).toEqual({
        ok: true,
        item: candidate,
        spans: [{ eventId: 'evt-2', quote: 'through BullMQ with three retries' }],
      });
    });

    it('returns a span repeated (also up to whitespace) once', () => {
      const result = index.verify(
        item([
          { eventId: 'evt-1', quote: 'use Kysely for all database access' },
          { eventId: 'evt-1', quote: 'use Kysely for all database access' },
          { eventId: 'evt-1', quote: 'use  Kysely\nfor all database access ' },
        ]),
      );
      expect(result.ok && result.spans).toEqual([{ eventId: 'evt-1', quote: 'use Kysely for all database access' }]);
    });

    it('keeps the same quote once per event it is found in', () => {
      const twice = new EvidenceIndex([event('evt-a', KYSELY), event('evt-b', KYSELY)]);
      const quote = 'use Kysely for all database access';
      const result = twice.verify(
        item([
          { eventId: 'evt-a', quote },
          { eventId: 'evt-b', quote },
        ]),
      );
      expect(result.ok && result.spans).toEqual([
        { eventId: 'evt-a', quote },
        { eventId: 'evt-b', quote },
      ]);
    });

    it('explains a rejection with the number of spans tried', () => {
      const result = index.verify(
        item([
          { eventId: 'evt-1', quote: 'not in the event at all' },
          { eventId: 'evt-2', quote: 'short' },
        ]),
      );
      expect(result).toEqual({ ok: false, reason: 'no-verified-span', detail: expect.stringContaining('2') });
    });
  });
});
