import { transcriptToEvents } from '@memex/transcript';
import type { CandidateItem, EngineEvent } from '../candidate';
import { EvidenceIndex } from '../verify';
import { extractLocally } from './local-engine';

/**
 * Short sessions in Claude Code's transcript format (one JSON entry a line), read by the same
 * transcript reader the hooks use, for the extraction rules' tests.
 */
export class SessionFixture {
  private readonly lines: string[] = [];
  private n = 0;

  private entry(type: 'user' | 'assistant', content: unknown, extra: Record<string, unknown> = {}): this {
    this.n += 1;
    const uuid = `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
    const timestamp = new Date(Date.UTC(2026, 10, 20, 9, 0, this.n)).toISOString();
    this.lines.push(
      JSON.stringify({ type, uuid, timestamp, cwd: '/work/app', ...extra, message: { role: type, content } }),
    );
    return this;
  }

  /** The summary Claude Code writes into the transcript when it compacts the session. */
  compacted(summary: string): this {
    return this.entry(
      'user',
      `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary}`,
      { isCompactSummary: true, isVisibleInTranscriptOnly: true },
    );
  }

  prompt(text: string): this {
    return this.entry('user', text);
  }

  say(text: string): this {
    return this.entry('assistant', [{ type: 'text', text }]);
  }

  tool(name: string, input: Record<string, unknown>, result: string, isError = false): this {
    const id = `toolu_${this.n + 1}`;
    this.entry('assistant', [{ type: 'tool_use', id, name, input }]);
    return this.entry('user', [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }]);
  }

  bash(command: string, output: string, failed = false): this {
    return this.tool('Bash', { command }, failed ? `Exit code 1\n${output}` : output, failed);
  }

  edit(path: string): this {
    return this.tool(
      'Edit',
      { file_path: `/work/app/${path}`, old_string: 'a\nb', new_string: 'c\nd' },
      `The file /work/app/${path} has been updated.`,
    );
  }

  todos(list: Array<[string, 'completed' | 'in_progress' | 'pending']>): this {
    return this.tool(
      'TodoWrite',
      { todos: list.map(([content, status]) => ({ content, status, activeForm: content })) },
      'Todos have been modified successfully.',
    );
  }

  events(): EngineEvent[] {
    return transcriptToEvents(this.lines.join('\n')).map((e, i) => ({
      ...e,
      seq: i + 1,
      timestamp: new Date(e.timestamp),
      metadata: e.metadata ?? null,
    }));
  }
}

/** The items the local engine reads from a fixture, and those whose evidence does not verify against its events, as the worker checks. */
export function extractChecked(fixture: SessionFixture): { items: CandidateItem[]; unverified: CandidateItem[] } {
  const events = fixture.events();
  const items = extractLocally(events);
  const index = new EvidenceIndex(events);
  return { items, unverified: items.filter((item) => !index.verify(item).ok) };
}

/** The items the local engine reads from a fixture, each of which must verify against its events, as the worker checks. */
export function verifiedItems(fixture: SessionFixture): CandidateItem[] {
  const { items, unverified } = extractChecked(fixture);
  expect(unverified).toEqual([]);
  return items;
}

/** A session of one prompt and the assistant's answer to it. */
export const exchange = (prompt: string, answer: string) => new SessionFixture().prompt(prompt).say(answer);
