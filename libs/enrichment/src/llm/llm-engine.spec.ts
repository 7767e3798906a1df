import { type EngineInput, type TokenUsage } from '../candidate';
import { type ChatMessage, type ChatPort, type ChatRequest } from './chat-port';
import { LlmEngine, MalformedModelOutputError } from './llm-engine';
import { MODEL_OUTPUT_JSON_SCHEMA } from './parse-output';
import { buildPrompt } from './prompt';

/** Answers with scripted contents, one per call, and records every request. */
class ScriptedChat implements ChatPort {
  readonly engine = 'claude-code' as const;
  readonly model = 'scripted';
  readonly requests: ChatMessage[][] = [];
  readonly schemas: Record<string, unknown>[] = [];

  constructor(private readonly answers: { content: string; usage: TokenUsage }[]) {}

  async complete(messages: ChatMessage[], request: ChatRequest): Promise<{ content: string; usage: TokenUsage }> {
    this.requests.push(messages.map((m) => ({ ...m })));
    this.schemas.push(request.schema);
    const next = this.answers[this.requests.length - 1];
    if (!next) throw new Error(`unscripted call ${this.requests.length}`);
    return next;
  }
}

function usage(promptTokens: number, completionTokens: number): TokenUsage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

const INPUT: EngineInput = {
  events: [
    {
      seq: 1,
      eventId: 'evt-1',
      type: 'prompt',
      timestamp: new Date('2026-11-21T09:30:00Z'),
      content: 'We will use Kysely everywhere.',
      metadata: null,
    },
  ],
  hints: [{ dedupHint: 'decision:db:kysely', type: 'Decision', title: 'Use Kysely' }],
};

const GOOD = JSON.stringify({
  items: [
    {
      type: 'Decision',
      title: 'Use Kysely for database access',
      facts: 'All queries go through Kysely.',
      schemaKey: 'root/db',
      dedupHint: 'decision:db:kysely',
      importance: 4,
      confidence: 0.9,
      evidence: [{ eventId: 'evt-1', quote: 'We will use Kysely everywhere' }],
    },
  ],
});
const NOT_JSON = 'Sure! Here are the items you asked for.';
const NO_ITEMS = '{"results": []}';

describe('LlmEngine', () => {
  it('is named after the chat port it speaks through', () => {
    const engine = new LlmEngine(new ScriptedChat([]));
    expect([engine.name, engine.model]).toEqual(['claude-code', 'scripted']);
  });

  it('returns the candidates of a good first answer after one call', async () => {
    const chat = new ScriptedChat([{ content: GOOD, usage: usage(1000, 200) }]);
    const out = await new LlmEngine(chat).extract(INPUT);
    expect(out.calls).toBe(1);
    expect(out.usage).toEqual(usage(1000, 200));
    expect(out.candidates).toHaveLength(1);
    expect(out.candidates[0]).toMatchObject({ title: 'Use Kysely for database access', files: [], resolved: false });
    expect(chat.requests).toEqual([buildPrompt(INPUT)]);
    // The answer's schema goes along, for endpoints that constrain output to it; the raw answer comes back.
    expect(chat.schemas).toEqual([MODEL_OUTPUT_JSON_SCHEMA]);
    expect(out.answer).toBe(GOOD);
    expect(out.inputChars).toBe(buildPrompt(INPUT).reduce((n, m) => n + m.content.length, 0));
  });

  it('returns no candidates when the model found none', async () => {
    const chat = new ScriptedChat([{ content: '{"items": []}', usage: usage(900, 5) }]);
    expect(await new LlmEngine(chat).extract(INPUT)).toMatchObject({ candidates: [], usage: usage(900, 5), calls: 1 });
  });

  it('asks once for a repair after a bad answer, showing the model its answer and the problem', async () => {
    const chat = new ScriptedChat([
      { content: NOT_JSON, usage: usage(1000, 20) },
      { content: GOOD, usage: usage(1100, 210) },
    ]);
    const out = await new LlmEngine(chat).extract(INPUT);
    expect(out.calls).toBe(2);
    expect(out.usage).toEqual(usage(2100, 230));
    expect(out.candidates.map((c) => c.dedupHint)).toEqual(['decision:db:kysely']);

    expect(chat.requests).toHaveLength(2);
    const prompt = buildPrompt(INPUT);
    const second = chat.requests[1]!;
    expect(second.slice(0, prompt.length)).toEqual(prompt);
    expect(second).toHaveLength(prompt.length + 2);
    expect(second[prompt.length]).toEqual({ role: 'assistant', content: NOT_JSON });
    expect(second[prompt.length + 1]!.role).toBe('user');
    expect(second[prompt.length + 1]!.content).toMatch(/not valid JSON/);
  });

  it('names the schema problem in the repair request', async () => {
    const chat = new ScriptedChat([
      { content: NO_ITEMS, usage: usage(10, 1) },
      { content: GOOD, usage: usage(10, 1) },
    ]);
    await new LlmEngine(chat).extract(INPUT);
    expect(chat.requests[1]!.at(-1)!.content).toContain('items');
  });

  it('throws MalformedModelOutputError with the usage of both calls when the repair is bad too', async () => {
    const chat = new ScriptedChat([
      { content: NOT_JSON, usage: usage(1000, 20) },
      { content: NO_ITEMS, usage: usage(1100, 30) },
    ]);
    const error = await new LlmEngine(chat).extract(INPUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedModelOutputError);
    const malformed = error as MalformedModelOutputError;
    expect(malformed.name).toBe('MalformedModelOutputError');
    expect(malformed.usage).toEqual(usage(2100, 50));
    expect(malformed.message).toMatch(/after one repair/);
    expect(malformed.message).toContain('items');
    expect(chat.requests).toHaveLength(2);
  });
});
