import { INGEST_LIMITS, isIngestableEvent } from '@memex/event-rules';
import { rawEventInputSchema } from './raw-event';

const valid = { eventId: 'e-1', type: 'prompt', timestamp: '2026-11-21T09:30:00Z', content: 'Use queues.' };

/** Events ingest must take or refuse, each a way an event can be right or wrong. */
const CASES: Array<[string, unknown]> = [
  ['a plain event', valid],
  ['with metadata', { ...valid, metadata: { tool: 'Bash', input: { command: 'ls' } } }],
  ['with metadata undefined', { ...valid, metadata: undefined }],
  ['an id at its longest', { ...valid, eventId: 'a'.repeat(INGEST_LIMITS.maxIdLength) }],
  ['an id one too long', { ...valid, eventId: 'a'.repeat(INGEST_LIMITS.maxIdLength + 1) }],
  ['an empty id', { ...valid, eventId: '' }],
  ['an id opening with a dot', { ...valid, eventId: '.e' }],
  ['an id with a space', { ...valid, eventId: 'e 1' }],
  ['an id of every allowed character', { ...valid, eventId: 'a0._:/@+=-' }],
  ['a number for an id', { ...valid, eventId: 7 }],
  ['an unknown type', { ...valid, type: 'thought' }],
  ['every known type', { ...valid, type: 'file_edit' }],
  ['a date without a zone', { ...valid, timestamp: '2026-11-21T09:30:00' }],
  ['the 30th of February', { ...valid, timestamp: '2024-02-30T00:00:00Z' }],
  ['an offset and fractions', { ...valid, timestamp: '2026-11-21T09:30:00.123+02:00' }],
  ['content at its limit', { ...valid, content: 'x'.repeat(INGEST_LIMITS.maxContentBytes) }],
  ['content a byte over', { ...valid, content: 'x'.repeat(INGEST_LIMITS.maxContentBytes - 1) + 'é' }],
  ['content with NUL', { ...valid, content: 'a\u0000b' }],
  ['content with a lone surrogate', { ...valid, content: 'a\ud800b' }],
  ['content with a surrogate pair', { ...valid, content: 'a\ud83d\ude00b' }],
  ['empty content', { ...valid, content: '' }],
  ['no content', { eventId: 'e', type: 'note', timestamp: valid.timestamp }],
  ['an extra field', { ...valid, sessionId: 's' }],
  ['metadata as an array', { ...valid, metadata: [1, 2] }],
  ['metadata as a string', { ...valid, metadata: 'x' }],
  ['metadata null', { ...valid, metadata: null }],
  ['metadata too deep', { ...valid, metadata: JSON.parse('{"a":'.repeat(9) + '1' + '}'.repeat(9)) as unknown }],
  ['metadata just deep enough', { ...valid, metadata: JSON.parse('{"a":'.repeat(7) + '1' + '}'.repeat(7)) as unknown }],
  ['metadata with NUL in a key', { ...valid, metadata: { 'a\u0000': 1 } }],
  ['metadata too large', { ...valid, metadata: { text: 'x'.repeat(INGEST_LIMITS.maxMetadataBytes) } }],
  ['null', null],
  ['an array', [valid]],
];

describe('isIngestableEvent and rawEventInputSchema', () => {
  it.each(CASES)('agree on %s', (_, event) => {
    expect(isIngestableEvent(event)).toBe(rawEventInputSchema.safeParse(event).success);
  });

  it('take and refuse some of the cases, so that agreeing says something', () => {
    const taken = CASES.filter(([, event]) => isIngestableEvent(event)).length;
    expect(taken).toBeGreaterThan(5);
    expect(CASES.length - taken).toBeGreaterThan(15);
  });
});
