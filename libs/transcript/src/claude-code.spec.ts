import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INGEST_LIMITS, rawEventInputSchema } from '@memex/domain';
import { capContent, entryToEvents, newTranscriptState, transcriptToEvents } from './claude-code';

const fixture = readFileSync(join(__dirname, '../../../test/fixtures/claude-code/session-discount-fix.jsonl'), 'utf8');

/** A user line of a transcript, with the flags Claude Code marks some with. */
const userLine = (uuid: string, content: unknown, flags: Record<string, boolean> = {}) => ({
  type: 'user',
  ...flags,
  uuid,
  timestamp: '2026-11-20T14:00:00Z',
  message: { role: 'user', content },
});

describe('transcriptToEvents', () => {
  const events = transcriptToEvents(fixture);

  it('keeps the conversation and drops harness lines (meta, progress, system, attachments, snapshots, summaries, thinking)', () => {
    expect(events.map((e) => e.type)).toEqual([
      'prompt', // /clear wrapper: kept as text, the engines drop harness text
      'prompt',
      'response',
      'tool_call',
      'error',
      'tool_call',
      'tool_result',
      'response',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'tool_call',
      'command',
      'response',
      'prompt',
      'response',
    ]);
    expect(events.some((e) => e.content.includes('Caveat: The messages below'))).toBe(false);
    expect(events.some((e) => e.content.includes('TodoWrite'))).toBe(false);
  });

  it('produces events ingest accepts', () => {
    for (const e of events) expect(rawEventInputSchema.safeParse(e).success).toBe(true);
  });

  it('derives stable, unique event ids from entry uuids and block positions', () => {
    const ids = events.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(transcriptToEvents(fixture).map((e) => e.eventId)).toEqual(ids);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[2]).toMatch(/^[0-9a-f-]{36}:0$/);
  });

  it('describes tool calls in one line, with paths relative to the session cwd', () => {
    const edit = events.find((e) => e.type === 'tool_call' && e.content.startsWith('Edit'))!;
    expect(edit.content).toBe('Edit src/cart/cart.service.ts');
    expect(edit.metadata).toMatchObject({
      tool: 'Edit',
      toolUseId: 'toolu_01FixEdit0001',
      input: { file_path: 'src/cart/cart.service.ts' },
    });
    expect(events.find((e) => e.type === 'tool_call')?.content).toBe('Bash: npm test -- cart');
  });

  it('links results to their call: tool name, command, and errors as error events', () => {
    const failed = events.find((e) => e.type === 'error')!;
    expect(failed.metadata).toEqual({
      toolUseId: 'toolu_01FixBash0001',
      tool: 'Bash',
      command: 'npm test -- cart',
      isError: true,
    });
    expect(failed.content).toContain("TypeError: Cannot read properties of undefined (reading 'percent')");
    const passed = events.find((e) => e.type === 'command')!;
    expect(passed.metadata).toEqual({ toolUseId: 'toolu_01FixBash0002', tool: 'Bash', command: 'npm test -- cart' });
  });

  it('skips lines that are not JSON, and entries without uuid, timestamp or message', () => {
    const text = `not json\n{"type":"user"}\n${fixture.split('\n')[4]}\n{"type":"assistant","uuid":"x","timestamp":"2026-01-01T00:00:00Z"}`;
    expect(transcriptToEvents(text)).toHaveLength(1);
  });

  it("does not count Claude Code's complaint about a tool call as a project error", () => {
    const state = newTranscriptState();
    const entry = userLine('u1', [
      {
        type: 'tool_result',
        tool_use_id: 't1',
        is_error: true,
        content: '<tool_use_error>File has not been read yet.</tool_use_error>',
      },
    ]);
    expect(entryToEvents(entry, state)).toEqual([
      expect.objectContaining({ type: 'tool_result', metadata: { toolUseId: 't1' } }),
    ]);
  });

  it('skips subagent (sidechain) lines', () => {
    const entry = userLine('u2', 'hello there', { isSidechain: true });
    expect(entryToEvents(entry)).toEqual([]);
  });

  it('turns a compaction summary into a note', () => {
    const entry = userLine('u3', 'This session is being continued. Summary: the cart fix landed.', {
      isCompactSummary: true,
    });
    expect(entryToEvents(entry)).toEqual([
      expect.objectContaining({ type: 'note', metadata: { kind: 'compact-summary' } }),
    ]);
  });
});

describe('capContent', () => {
  it('keeps content within the ingest limit, marking the cut, and never splits a character', () => {
    const big = 'é'.repeat(INGEST_LIMITS.maxContentBytes);
    const capped = capContent(big);
    expect(Buffer.byteLength(capped, 'utf8')).toBeLessThanOrEqual(INGEST_LIMITS.maxContentBytes);
    expect(capped.endsWith('[… truncated by memex]')).toBe(true);
    expect(capped).not.toContain('\uFFFD');
    expect(capContent('short')).toBe('short');
  });

  it('removes NUL characters, which ingest refuses', () => {
    expect(capContent('a\u0000b')).toBe('ab');
  });
});

describe('structured tool calls and ids', () => {
  const line = (uuid: string, content: unknown[]) =>
    JSON.stringify({
      type: 'assistant',
      uuid,
      timestamp: '2026-11-20T09:00:00Z',
      message: { role: 'assistant', content },
    });

  it('writes a todo list and an accepted plan into the event content, where evidence is quoted from', () => {
    const events = transcriptToEvents(
      [
        line('a1', [
          {
            type: 'tool_use',
            id: 't1',
            name: 'TodoWrite',
            input: {
              todos: [
                { content: 'Create the workflow', status: 'completed' },
                { content: 'Test it with act', status: 'in_progress' },
                { content: 'Fix type errors', status: 'pending' },
              ],
            },
          },
        ]),
        line('a2', [
          { type: 'tool_use', id: 't2', name: 'ExitPlanMode', input: { plan: 'Switch to native <ruby> elements' } },
        ]),
      ].join('\n'),
    );
    expect(events.map((e) => e.content)).toEqual([
      'TodoWrite:\n- [x] Create the workflow\n- [~] Test it with act\n- [ ] Fix type errors',
      'ExitPlanMode:\nSwitch to native <ruby> elements',
    ]);
  });

  it('makes an id ingest accepts of a uuid an archiver rewrote, the same each time it is read', () => {
    const text = line('1fcd6a8b-ace5-[REDACTED_CARD]6690', [{ type: 'text', text: 'Done.' }]);
    const [first] = transcriptToEvents(text);
    expect(first!.eventId).toBe('1fcd6a8b-ace5-_REDACTED_CARD_6690:0');
    expect(transcriptToEvents(text)[0]!.eventId).toBe(first!.eventId);
  });
});
