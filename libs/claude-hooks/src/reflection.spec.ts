import type { RawEventInput } from '@memex/domain';
import { NO_WORK, addWork, reflectOutput, shouldReflect } from './reflection';

let n = 0;
const event = (type: RawEventInput['type'], tool?: string): RawEventInput => ({
  eventId: `e${(n += 1)}`,
  type,
  timestamp: '2026-11-25T09:00:00Z',
  content: 'x',
  ...(tool ? { metadata: { tool } } : {}),
});

describe('the work a session has done since it last reflected', () => {
  it('counts edits, and failures a later command got past, across hook runs', () => {
    const first = addWork(NO_WORK, [event('tool_call', 'Read'), event('tool_call', 'Edit'), event('error', 'Bash')]);
    expect(first).toEqual({ edits: 1, fixes: 0, failing: true, reflected: false });
    const second = addWork(first, [event('tool_call', 'Bash'), event('command', 'Bash')]);
    expect(second).toEqual({ edits: 1, fixes: 1, failing: false, reflected: false });
  });

  it('is reason to reflect after an edit or a fix, once, and never while a Stop hook already continues the session', () => {
    const edited = addWork(NO_WORK, [event('tool_call', 'Write')]);
    const fixed = addWork(NO_WORK, [event('error'), event('command')]);
    expect(shouldReflect(NO_WORK, false)).toBe(false);
    expect(shouldReflect(addWork(NO_WORK, [event('error')]), false)).toBe(false);
    expect(shouldReflect(edited, false)).toBe(true);
    expect(shouldReflect(fixed, false)).toBe(true);
    expect(shouldReflect(edited, true)).toBe(false);
    expect(shouldReflect({ ...edited, reflected: true }, false)).toBe(false);
  });

  it('answers Stop with the one decision that keeps Claude working, and the request as its reason', () => {
    expect(JSON.parse(reflectOutput())).toEqual({
      decision: 'block',
      reason: expect.stringMatching(
        /^Before you stop: record with memex_remember .* if nothing is worth keeping, just stop\.$/,
      ),
    });
  });
});
