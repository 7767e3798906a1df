import type { Config } from '@memex/config';
import type { EnrichmentRepository, MemoryItemRepository, WindowRef } from '@memex/db';
import type { EngineEvent } from '@memex/domain';
import { candidateItemSchema, NO_COUNTS, type CandidateItem, type VerifiedItem } from '@memex/enrichment';
import type { BackgroundPace } from '@memex/server';
import { fake } from '../../../test/support/fakes';
import type { EnrichmentMetrics } from './enrichment.metrics';
import { EnrichmentService } from './enrichment.service';
import type { EntityRecorder } from './entity-recorder';
import type { ModelRead, ModelReader } from './model-reader';
import type { WindowResult, WindowWriter } from './window-writer';

const T = new Date('2026-11-26T10:00:00Z');
const EVENTS: EngineEvent[] = [
  {
    seq: 1,
    eventId: 'e1',
    type: 'prompt',
    timestamp: T,
    content: 'Should money be floats or integer cents?',
    metadata: null,
  },
  {
    seq: 2,
    eventId: 'e2',
    type: 'response',
    timestamp: new Date(T.getTime() + 1000),
    content: 'We store every amount as integer cents: floats lose cents in sums.',
    metadata: null,
  },
];

function candidate(quote: string): CandidateItem {
  return candidateItemSchema.parse({
    type: 'Decision',
    title: 'Money is integer cents',
    facts: 'Every amount is stored as integer cents.',
    rationale: 'Floats lose cents in sums.',
    impact: null,
    files: [],
    tags: [],
    importance: 4,
    confidence: 0.9,
    evidence: [{ eventId: 'e2', quote }],
    schemaKey: 'root/money',
    dedupHint: 'decision:money:integer-cents',
  });
}

const counter = () => ({ inc: jest.fn() });

/** A turn that ends on an edit, with no closing message after it. */
const MID_WORK: EngineEvent[] = [
  EVENTS[0]!,
  {
    seq: 2,
    eventId: 'e2',
    type: 'response',
    timestamp: new Date(T.getTime() + 1000),
    content:
      'The issue is that floats lose cents when amounts are summed, so `src/money.ts` will store every amount as integer cents instead.',
    metadata: null,
  },
  {
    seq: 3,
    eventId: 'e3',
    type: 'tool_call',
    timestamp: new Date(T.getTime() + 2000),
    content: 'Edit src/money.ts',
    metadata: { tool: 'Edit', toolUseId: 't3', input: { file_path: 'src/money.ts', old_string: 'a', new_string: 'b' } },
  },
];

function setUp({
  lease = true,
  model,
  raceFirst = false,
  events = EVENTS,
  endedSeq = null,
  windowEvents = 200,
}: {
  lease?: boolean;
  model?: ModelRead;
  raceFirst?: boolean;
  events?: EngineEvent[];
  endedSeq?: number | null;
  windowEvents?: number;
} = {}) {
  let cursor = 0;
  let endReadSeq: number | null = null;
  let races = raceFirst ? 1 : 0;
  // What the client says later: the session ended at its newest event.
  const end = () => {
    endedSeq = events.length;
  };
  const store = fake<EnrichmentRepository>(
    {
      claimLease: async () => lease,
      releaseLease: async () => undefined,
      session: async () => ({ cursor, lastEventSeq: events.length, endedSeq, endReadSeq }),
      eventsAfter: async (_s: string, after: number, limit: number) =>
        events.filter((e) => e.seq > after).slice(0, limit),
      eventsUpTo: async (_s: string, upTo: number) => events.filter((e) => e.seq <= upTo),
    },
    'store',
  );
  const items = fake<MemoryItemRepository>({ liveHints: async () => [] }, 'items');
  const windows = fake<WindowWriter>(
    {
      write: async (ref: WindowRef, verified: readonly VerifiedItem[]): Promise<WindowResult> => {
        if (races > 0) {
          races -= 1;
          cursor = ref.newCursor; // Another run wrote this window first.
          return { raced: true };
        }
        cursor = ref.newCursor;
        if (ref.endRead) endReadSeq = ref.newCursor;
        return { raced: false, itemIds: verified.map((_, i) => `I${i}`), ...NO_COUNTS, created: verified.length };
      },
    },
    'windows',
  );
  const models = fake<ModelReader>(
    {
      engine: model ? ({ name: 'openai' } as ModelReader['engine']) : undefined,
      read: async () => model!,
    },
    'models',
  );
  const metrics = {
    events: counter(),
    items: counter(),
    rejected: counter(),
    windows: counter(),
  } as unknown as EnrichmentMetrics;
  const entities = fake<EntityRecorder>({ afterWindow: async () => true }, 'entities');
  const pace = fake<BackgroundPace>({ watchesRequests: false, yield: async () => undefined }, 'pace');
  const config = {
    ENRICHMENT_WINDOW_EVENTS: windowEvents,
    ENRICHMENT_WINDOW_TOKENS: 100_000,
    ENRICHMENT_SESSION_ITEMS: 15,
    ENRICHMENT_MAX_HINTS: 20,
  } as Config;
  const service = new EnrichmentService(store, items, windows, models, metrics, entities, config, pace);
  return { service, store, windows, entities, models, end };
}

const modelSaid = (...candidates: CandidateItem[]): ModelRead => ({
  engine: 'openai',
  replayed: false,
  output: { candidates, usage: { promptTokens: 900, completionTokens: 100, totalTokens: 1000 }, calls: 1 },
});

describe('EnrichmentService.enrichSession', () => {
  it("keeps a model's item only when its quote stands verbatim in the window, and counts the rest by reason", async () => {
    const { service, windows } = setUp({
      model: modelSaid(candidate('every amount as integer cents'), candidate('we agreed on BigDecimal everywhere')),
    });
    const report = await service.enrichSession('P1', 'S1', 'job:1');
    expect(report).toMatchObject({
      windows: 1,
      events: 2,
      created: 1,
      rejected: 1,
      tokens: 1000,
      modelCalls: 1,
      engine: 'openai',
    });
    expect(Object.values(report.rejectedBy)).toEqual([1]);
    const [ref, verified] = windows.write.mock.calls[0]!;
    expect(ref).toMatchObject({ expectedCursor: 0, newCursor: 2, actor: 'enrichment:openai', runId: 'job:1' });
    expect(verified.map((v) => v.spans[0]!.quote)).toEqual(['every amount as integer cents']);
  });

  it('reads with the local engine when the model cannot be used, and says why', async () => {
    const { service, windows } = setUp({
      model: { fallback: 'daily-token-budget', usage: undefined, calls: 0 } as ModelRead,
    });
    const report = await service.enrichSession('P1', 'S1', 'job:1');
    expect(report).toMatchObject({ windows: 1, fallback: 'daily-token-budget' });
    expect(windows.write.mock.calls[0]![0].actor).toBe('enrichment:local');
  });

  it('reads a turn that ends on work once the session has ended there, and not before', async () => {
    const open = setUp({ events: MID_WORK, endedSeq: null });
    expect(await open.service.enrichSession('P1', 'S1', 'job:1')).toMatchObject({ windows: 1, created: 0 });
    const ended = setUp({ events: MID_WORK, endedSeq: 3 });
    expect(await ended.service.enrichSession('P1', 'S1', 'job:1')).toMatchObject({ windows: 1, created: 1 });
    const [, verified] = ended.windows.write.mock.calls[0]!;
    expect(verified[0]!.candidate.files).toEqual(['src/money.ts']);
  });

  it('reads a last turn an earlier window left open once, when the session ends with nothing new', async () => {
    // Stop came first: the turn was read mid-work and left open. SessionEnd brings no event.
    const { service, windows, end } = setUp({ events: MID_WORK });
    expect(await service.enrichSession('P1', 'S1', 'job:1')).toMatchObject({ windows: 1, created: 0 });
    end();
    expect(await service.enrichSession('P1', 'S1', 'job:2')).toMatchObject({ windows: 1, events: 0, created: 1 });
    const [ref, verified] = windows.write.mock.calls[1]!;
    expect(ref).toMatchObject({ expectedCursor: 3, newCursor: 3, endRead: true });
    expect(verified[0]!.candidate.files).toEqual(['src/money.ts']);
    // Read once: another job at the same end reads nothing.
    expect(await service.enrichSession('P1', 'S1', 'job:3')).toMatchObject({ windows: 0 });
  });

  it('reads nothing more at the end of a session whose last turn closed on text, or that a model reads', async () => {
    const closed = setUp();
    await closed.service.enrichSession('P1', 'S1', 'job:1');
    closed.end();
    expect(await closed.service.enrichSession('P1', 'S1', 'job:2')).toMatchObject({ windows: 1, created: 0 });
    const model = setUp({ events: MID_WORK, model: modelSaid() });
    await model.service.enrichSession('P1', 'S1', 'job:1');
    model.end();
    expect(await model.service.enrichSession('P1', 'S1', 'job:2')).toMatchObject({ windows: 0 });
  });

  it('does not read an end from before the session was resumed as its end', async () => {
    const resumed = [...MID_WORK, { ...MID_WORK[2]!, seq: 4, eventId: 'e4', timestamp: new Date(T.getTime() + 3000) }];
    // It ended at 3 and went on: a window cut at 3 is mid-work, not the end.
    const { service, windows } = setUp({ events: resumed, endedSeq: 3, windowEvents: 3 });
    expect(await service.enrichSession('P1', 'S1', 'job:1')).toMatchObject({ windows: 2, created: 0 });
    expect(windows.write.mock.calls.map(([ref]) => ref.endRead)).toEqual([false, false]);
  });

  it('reads the end of the session only in the window that reaches it, however the windows are cut', async () => {
    const twoEdits: EngineEvent[] = [
      ...MID_WORK,
      { ...MID_WORK[2]!, seq: 4, eventId: 'e4', timestamp: new Date(T.getTime() + 3000) },
    ];
    // Three events a window: the first ends mid-work before the end, the second where the session ended.
    const { service, windows } = setUp({ events: twoEdits, endedSeq: 4, windowEvents: 3 });
    expect(await service.enrichSession('P1', 'S1', 'job:1')).toMatchObject({ windows: 2, created: 1 });
    expect(windows.write.mock.calls.map(([ref, verified]) => [ref.newCursor, verified.length])).toEqual([
      [3, 0],
      [4, 1],
    ]);
  });

  it('records the entities of each window written, and holds the session while it works', async () => {
    const { service, store, entities } = setUp();
    await service.enrichSession('P1', 'S1', 'job:1');
    expect(store.claimLease).toHaveBeenCalledWith('S1', 'job:1', expect.any(Number));
    expect(entities.afterWindow).toHaveBeenCalledWith('P1', 'S1', 2, EVENTS[1]!.timestamp);
    expect(store.releaseLease).toHaveBeenCalledWith('S1', 'job:1');
  });

  it('reads nothing while another run holds the session', async () => {
    const { service, store, windows } = setUp({ lease: false });
    expect(await service.enrichSession('P1', 'S1', 'job:2')).toMatchObject({ busy: true, windows: 0 });
    expect(store.session).not.toHaveBeenCalled();
    expect(windows.write).not.toHaveBeenCalled();
  });

  it('drops a window another run wrote first and reads on from where that run left it', async () => {
    const { service, entities } = setUp({
      model: modelSaid(candidate('every amount as integer cents')),
      raceFirst: true,
    });
    expect(await service.enrichSession('P1', 'S1', 'job:1')).toMatchObject({ raced: 1, windows: 0 });
    expect(entities.afterWindow).not.toHaveBeenCalled();
  });

  it('releases the session when a window fails, and lets the failure reach the job', async () => {
    const { service, store, windows } = setUp({ model: modelSaid() });
    windows.write.mockRejectedValueOnce(new Error('connection lost'));
    await expect(service.enrichSession('P1', 'S1', 'job:1')).rejects.toThrow('connection lost');
    expect(store.releaseLease).toHaveBeenCalledWith('S1', 'job:1');
  });
});
