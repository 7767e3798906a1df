import type { Config } from '@memex/config';
import type { ModelUsageRepository, ModelWindow } from '@memex/db';
import type { DaySpend, EngineEvent } from '@memex/domain';
import { ChatUnavailableError, LlmEngine, type ChatAnswer, type ChatPort } from '@memex/enrichment';
import { fake } from '../../../test/support/fakes';
import type { EnrichmentMetrics } from './enrichment.metrics';
import { ModelReader } from './model-reader';

const T = new Date('2026-11-26T10:00:00Z');
const WINDOW: EngineEvent[] = [
  { seq: 4, eventId: 'e4', type: 'prompt', timestamp: T, content: 'Floats or cents for money?', metadata: null },
  {
    seq: 5,
    eventId: 'e5',
    type: 'response',
    timestamp: T,
    content: 'Integer cents: floats lose cents.',
    metadata: null,
  },
];
const ANSWER = JSON.stringify({ items: [] });
const USAGE = { promptTokens: 900, completionTokens: 100, totalTokens: 1000 };

/** A reader whose model answers `answer` (or fails with it), over a ledger that already holds `spent` and `inFlight`. */
function setUp({
  answer = { content: ANSWER, usage: USAGE } as ChatAnswer | Error,
  kept = undefined as ModelWindow | undefined,
  spent = { tokens: 0, costUsd: null } as DaySpend,
  inFlight = [] as Array<{ tokens: number; costUsd: number | null }>,
  dailyTokens = 0,
} = {}) {
  const usage = fake<ModelUsageRepository>(
    {
      answerFor: async () => kept,
      // The ledger's contract: the caller's rule sees the day's spend and every call in flight.
      reserve: async <R>(
        _p: string,
        _day: string,
        _estimate: unknown,
        _holdMs: number,
        refuses: (s: DaySpend, f: typeof inFlight) => R | null,
      ) => {
        const refused = refuses(spent, inFlight);
        return refused === null ? { id: 17 } : { refused };
      },
      release: async () => undefined,
      record: async () => undefined,
      keepAnswer: async () => undefined,
    },
    'usage',
  );
  const chat = fake<ChatPort>(
    {
      engine: 'openai',
      model: 'qwen3',
      complete: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    'chat',
  );
  const counter = () => ({ inc: jest.fn() });
  const metrics = { fallbacks: counter(), tokens: counter(), cost: counter() } as unknown as EnrichmentMetrics;
  const config = {
    LLM_DAILY_TOKENS: dailyTokens,
    LLM_DAILY_COST_USD: 0,
    LLM_PRICES: {},
    LLM_TIMEOUT_MS: 60_000,
    LLM_MAX_RETRIES: 2,
    CLAUDE_CODE_TIMEOUT_MS: 120_000,
  } as unknown as Config;
  const reader = new ModelReader(usage, metrics, config);
  Object.assign(reader, { engine: new LlmEngine(chat) });
  return { reader, usage, chat, metrics };
}

const hints = async () => [];

describe('ModelReader.read', () => {
  it('pays for a window once: its answer and its spend recorded, its reservation released', async () => {
    const { reader, usage } = setUp();
    const read = await reader.read('P1', 'S1', WINDOW, hints);
    expect(read).toMatchObject({ engine: 'openai', replayed: false, output: { usage: USAGE, calls: 1 } });
    expect(usage.record).toHaveBeenCalledWith(
      'P1',
      expect.any(String),
      'openai',
      expect.objectContaining({ tokens: 1000, calls: 1 }),
    );
    expect(usage.keepAnswer).toHaveBeenCalledWith(
      expect.objectContaining({ sessionId: 'S1', firstSeq: 4, lastSeq: 5, answer: ANSWER, tokens: 1000 }),
    );
    expect(usage.release).toHaveBeenCalledWith(17);
  });

  it('reads back the answer a run before it paid for, and asks the model nothing', async () => {
    const kept = { engine: 'openai', answer: ANSWER } as ModelWindow;
    const { reader, usage, chat } = setUp({ kept });
    expect(await reader.read('P1', 'S1', WINDOW, hints)).toMatchObject({ replayed: true, engine: 'openai' });
    expect(chat.complete).not.toHaveBeenCalled();
    expect(usage.reserve).not.toHaveBeenCalled();
  });

  it('leaves the window to the local engine when the day is spent, counting the calls in flight', async () => {
    const { reader, chat } = setUp({
      dailyTokens: 1000,
      spent: { tokens: 700, costUsd: null },
      inFlight: [{ tokens: 300, costUsd: null }],
    });
    expect(await reader.read('P1', 'S1', WINDOW, hints)).toEqual({
      fallback: 'daily-token-budget',
      usage: undefined,
      calls: 0,
    });
    expect(chat.complete).not.toHaveBeenCalled();
  });

  it('falls back when the model cannot be reached, recording what it spent before failing and releasing its hold', async () => {
    const { reader, usage } = setUp({ answer: new ChatUnavailableError('timeout', { ...USAGE, totalTokens: 40 }) });
    expect(await reader.read('P1', 'S1', WINDOW, hints)).toMatchObject({ fallback: 'model-unavailable', calls: 1 });
    expect(usage.record).toHaveBeenCalledWith(
      'P1',
      expect.any(String),
      'openai',
      expect.objectContaining({ tokens: 40 }),
    );
    expect(usage.keepAnswer).not.toHaveBeenCalled();
    expect(usage.release).toHaveBeenCalledWith(17);
  });

  it('lets any other failure reach the job, its hold released', async () => {
    const { reader, usage } = setUp({ answer: new TypeError('a bug') });
    await expect(reader.read('P1', 'S1', WINDOW, hints)).rejects.toThrow('a bug');
    expect(usage.release).toHaveBeenCalledWith(17);
  });
});
