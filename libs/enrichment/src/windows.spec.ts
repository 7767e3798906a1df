import { type EngineEvent } from './candidate';
import { estimateTokens, takeWindow } from './windows';

/** Events whose content is `chars` long, so each costs ceil(chars / 4) + 20 tokens. */
function events(count: number, chars = 80): EngineEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    seq: i + 1,
    eventId: `evt-${i + 1}`,
    type: 'tool_result' as const,
    timestamp: new Date(Date.UTC(2026, 10, 21, 9, 30, i)),
    content: 'x'.repeat(chars),
    metadata: null,
  }));
}

const ROOMY = 1_000_000;

describe('estimateTokens', () => {
  it('counts four characters a token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(80))).toBe(20);
    expect(estimateTokens('x'.repeat(81))).toBe(21);
  });
});

describe('takeWindow', () => {
  it('returns nothing for no events', () => {
    expect(takeWindow([], { maxEvents: 10, maxTokens: ROOMY })).toEqual([]);
  });

  it('takes all n events when maxEvents is n', () => {
    const input = events(5);
    expect(takeWindow(input, { maxEvents: 5, maxTokens: ROOMY })).toEqual(input);
  });

  it('takes the first n of n + 1 events when maxEvents is n', () => {
    const input = events(6);
    const window = takeWindow(input, { maxEvents: 5, maxTokens: ROOMY });
    expect(window).toEqual(input.slice(0, 5));
  });

  it('takes one event when maxEvents is 1', () => {
    expect(takeWindow(events(3), { maxEvents: 1, maxTokens: ROOMY }).map((e) => e.eventId)).toEqual(['evt-1']);
  });

  it('takes events while their estimated cost (content tokens + 20 each) fits maxTokens exactly', () => {
    // 80 characters: 20 tokens of content + 20 of overhead = 40 tokens an event.
    expect(takeWindow(events(5), { maxEvents: 100, maxTokens: 120 })).toHaveLength(3);
    expect(takeWindow(events(5), { maxEvents: 100, maxTokens: 119 })).toHaveLength(2);
    expect(takeWindow(events(5), { maxEvents: 100, maxTokens: 159 })).toHaveLength(3);
    expect(takeWindow(events(5), { maxEvents: 100, maxTokens: 160 })).toHaveLength(4);
  });

  it('rounds each event up to whole tokens', () => {
    // 81 characters: 21 + 20 = 41 tokens an event, so three need 123.
    expect(takeWindow(events(5, 81), { maxEvents: 100, maxTokens: 122 })).toHaveLength(2);
    expect(takeWindow(events(5, 81), { maxEvents: 100, maxTokens: 123 })).toHaveLength(3);
  });

  it('charges the 20-token overhead even for empty events', () => {
    expect(takeWindow(events(5, 0), { maxEvents: 100, maxTokens: 60 })).toHaveLength(3);
    expect(takeWindow(events(5, 0), { maxEvents: 100, maxTokens: 59 })).toHaveLength(2);
  });

  it('applies whichever limit is reached first', () => {
    expect(takeWindow(events(10), { maxEvents: 2, maxTokens: 400 })).toHaveLength(2);
    expect(takeWindow(events(10), { maxEvents: 8, maxTokens: 80 })).toHaveLength(2);
  });

  it('yields exactly one event when the first alone exceeds maxTokens', () => {
    const huge = events(1, 10_000);
    const input = [...huge, ...events(3, 4)];
    const window = takeWindow(input, { maxEvents: 100, maxTokens: 50 });
    expect(window).toHaveLength(1);
    expect(window[0]).toBe(input[0]);
  });

  it('stops at an oversized event in the middle rather than skipping past it', () => {
    const [first, , third] = events(3);
    const input = [first!, { ...events(1, 10_000)[0]!, eventId: 'evt-huge' }, third!];
    expect(takeWindow(input, { maxEvents: 100, maxTokens: 200 })).toEqual([first]);
  });

  it('returns a prefix in the given order, of the same event objects', () => {
    const input = events(4);
    const window = takeWindow(input, { maxEvents: 3, maxTokens: ROOMY });
    window.forEach((e, i) => expect(e).toBe(input[i]));
  });
});
