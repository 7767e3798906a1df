import { MAX_CONTEXT_CHARS, additionalContextOutput, fitContext } from './hook-output';
import { completesSession, parseHookPayload } from './hook-payload';
import { completeLines } from './jsonl-lines';

describe('parseHookPayload', () => {
  it('reads payloads of old and new Claude Code builds, unknown fields included', () => {
    const old = parseHookPayload(
      JSON.stringify({
        session_id: '6706089d-9d7e-4f48-bd2d-8f2a2546eb78',
        transcript_path: '/Users/k/.claude/projects/-p/6706089d.jsonl',
        cwd: '/Users/k/p',
        hook_event_name: 'PreCompact',
        trigger: 'auto',
        custom_instructions: null,
      }),
    );
    expect(old).toMatchObject({ payload: { session_id: '6706089d-9d7e-4f48-bd2d-8f2a2546eb78', trigger: 'auto' } });
    const recent = parseHookPayload(
      JSON.stringify({
        session_id: 'abc',
        hook_event_name: 'SessionStart',
        source: 'startup',
        model: 'claude-opus-4-8[1m]',
        transcript_path: null,
      }),
    );
    expect(recent).toMatchObject({ payload: { session_id: 'abc', source: 'startup', transcript_path: null } });
  });

  it('says why it cannot use the input', () => {
    expect(parseHookPayload('')).toEqual({ problem: 'nothing on stdin' });
    expect(parseHookPayload('{nope')).toEqual({ problem: 'stdin is not JSON' });
    expect(parseHookPayload('{"hook_event_name":"Stop"}')).toEqual({ problem: 'payload without a usable session_id' });
    expect(parseHookPayload('{"session_id":"  "}')).toEqual({ problem: 'payload without a usable session_id' });
  });

  it('trims the session id and refuses one over 200 characters, or a payload that is not an object', () => {
    expect(parseHookPayload('{"session_id":" abc "}')).toEqual({ payload: { session_id: 'abc' } });
    expect(parseHookPayload(JSON.stringify({ session_id: 'a'.repeat(200) }))).toHaveProperty('payload');
    for (const bad of [{ session_id: 'a'.repeat(201) }, { session_id: 7 }, ['abc'], 'abc', null]) {
      expect(parseHookPayload(JSON.stringify(bad))).toEqual({ problem: 'payload without a usable session_id' });
    }
  });

  it('takes null for an optional field, and refuses one of the wrong type', () => {
    const nulls = {
      session_id: 'a',
      transcript_path: null,
      cwd: null,
      prompt: null,
      source: null,
      stop_hook_active: null,
    };
    expect(parseHookPayload(JSON.stringify(nulls))).toEqual({ payload: nulls });
    for (const bad of [
      { transcript_path: '' },
      { transcript_path: 3 },
      { cwd: ['/p'] },
      { prompt: { text: 'hi' } },
      { source: 1 },
      { stop_hook_active: 'true' },
      { hook_event_name: null },
    ]) {
      expect(parseHookPayload(JSON.stringify({ session_id: 'a', ...bad }))).toEqual({
        problem: 'payload without a usable session_id',
      });
    }
  });

  it('completes sessions at compaction, at a turn end and at exit only', () => {
    expect(['PreCompact', 'Stop', 'SessionEnd'].every((e) => completesSession(e as never))).toBe(true);
    expect(['SessionStart', 'UserPromptSubmit', 'PostToolUse'].some((e) => completesSession(e as never))).toBe(false);
  });
});

describe('additionalContextOutput', () => {
  it('is the documented hookSpecificOutput shape, with no decision key', () => {
    expect(JSON.parse(additionalContextOutput('SessionStart', '# Brain'))).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: '# Brain' },
    });
  });

  it('keeps context within Claude Code cap, cutting at a line end', () => {
    const exact = 'x'.repeat(MAX_CONTEXT_CHARS);
    expect(fitContext(exact)).toBe(exact);
    const long = Array.from({ length: 2000 }, (_, i) => `- line ${i}`).join('\n');
    const cut = fitContext(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_CONTEXT_CHARS);
    expect(cut).toMatch(/- line \d+\n\n\[… cut to fit/);
  });
});

describe('completeLines', () => {
  it('leaves a line still being written for the next read', () => {
    const chunk = Buffer.from('{"a":1}\n\n{"b":2}\r\n{"c":');
    expect(completeLines(chunk)).toEqual({ lines: ['{"a":1}', '{"b":2}'], consumed: 18 });
    expect(completeLines(Buffer.from('{"partial"'))).toEqual({ lines: [], consumed: 0 });
  });

  it('never splits a multi-byte character', () => {
    const text = '{"t":"é✓"}\n';
    expect(completeLines(Buffer.from(text))).toEqual({ lines: ['{"t":"é✓"}'], consumed: Buffer.byteLength(text) });
  });
});
