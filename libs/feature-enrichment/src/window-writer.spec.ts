import type { LiveItem, MemoryItemRepository, WindowItem, WindowRef, WindowTransaction } from '@memex/db';
import type { EvidenceSpan, Reinforcement } from '@memex/domain';
import { candidateItemSchema, type VerifiedItem } from '@memex/enrichment';
import { fake } from '../../../test/support/fakes';
import { WindowWriter } from './window-writer';

const REF: WindowRef = {
  projectId: 'P1',
  sessionId: 'S1',
  expectedCursor: 0,
  newCursor: 10,
  windowEndedAt: new Date('2026-11-26T10:00:00Z'),
  actor: 'enrichment:test',
  runId: 'run-1',
};

function verified(dedupHint: string, title: string, eventId = 'e1'): VerifiedItem {
  const spans = [{ eventId, quote: 'we store every amount as integer cents' }];
  return {
    candidate: candidateItemSchema.parse({
      type: 'Decision',
      title,
      facts: `${title}: every amount is stored as integer cents.`,
      rationale: 'Floats lose cents in sums.',
      impact: null,
      files: [],
      tags: [],
      importance: 3,
      confidence: 0.8,
      evidence: spans,
      schemaKey: 'root/money',
      dedupHint,
    }),
    spans,
  };
}

/** The live item of the hint `decision:money:cents`, saying `facts`. */
function liveItem(facts: string): Map<string, LiveItem> {
  return new Map([['decision:money:cents', { id: 'I1', type: 'Decision', status: 'active', facts, confidence: 0.6 }]]);
}

/** The repository's window over items in memory: what a spec needs to see each write. */
function setUp({
  raced = false,
  live = new Map<string, LiveItem>(),
  quoting = [] as Array<{ id: string; spans: EvidenceSpan[] }>,
} = {}) {
  const created: WindowItem[] = [];
  const tx = fake<WindowTransaction>(
    {
      quoting: async () => quoting,
      archive: async () => true,
      liveByHint: async () => live,
      held: async () => [],
      create: async (item: WindowItem) => {
        created.push(item);
        return `new-${created.length}`;
      },
      reinforceTarget: () => ({
        title: 'Money is stored as integer cents',
        status: 'active',
        files: [],
        evidenceSpans: [{ eventId: 'e0', quote: 'integer cents' }],
        salience: 0.5,
        resolvedAt: null,
      }),
      applyReinforcement: async (id: string, _r: Reinforcement, _reason: string) => id,
      supersede: async () => true,
    },
    'tx',
  );
  const items = fake<MemoryItemRepository>(
    {
      window: async <T>(_ref: WindowRef, work: (t: WindowTransaction) => Promise<T>) =>
        raced ? { raced: true as const } : { raced: false as const, value: await work(tx) },
    },
    'items',
  );
  return { writer: new WindowWriter(items), tx, created };
}

describe('WindowWriter', () => {
  it('creates an item per new dedup hint, with its evidence and salience', async () => {
    const { writer, created } = setUp();
    const result = await writer.write(REF, [verified('decision:money:cents', 'Money is integer cents')], {
      retracted: [],
      sessionCap: 15,
    });
    expect(result).toMatchObject({ raced: false, created: 1, reinforced: 0, itemIds: ['new-1'] });
    expect(created[0]).toMatchObject({ title: 'Money is integer cents', spans: [{ eventId: 'e1' }] });
    expect(created[0]!.salience).toBeGreaterThan(0);
  });

  it('reinforces the live item of a dedup hint seen again instead of writing a second one', async () => {
    const live = liveItem('Money is integer cents: every amount is stored as integer cents.');
    const { writer, tx, created } = setUp({ live });
    const result = await writer.write(REF, [verified('decision:money:cents', 'Money is integer cents', 'e2')], {
      retracted: [],
      sessionCap: 15,
    });
    expect(result).toMatchObject({ created: 0, reinforced: 1, itemIds: ['I1'] });
    expect(created).toEqual([]);
    const [id, reinforcement, reason] = tx.applyReinforcement.mock.calls[0]!;
    expect(id).toBe('I1');
    expect(reinforcement.evidenceRefs).toEqual(expect.arrayContaining(['e0', 'e2']));
    expect(reason).toBe('same dedup hint decision:money:cents seen again');
  });

  it('writes a Decision that says something else as a new item that supersedes the live one', async () => {
    const { writer, tx, created } = setUp({ live: liveItem('Amounts are floats rounded at display time.') });
    const result = await writer.write(REF, [verified('decision:money:cents', 'Money is integer cents', 'e2')], {
      retracted: [],
      sessionCap: 15,
    });
    expect(result).toMatchObject({ created: 1, superseded: 1, reinforced: 0, itemIds: ['new-1'] });
    expect(created).toHaveLength(1);
    expect(tx.supersede).toHaveBeenCalledWith('I1', 'new-1');
  });

  it('retracts an item resting on a conclusion the person rejected before writing the window', async () => {
    const { writer, tx } = setUp({ quoting: [{ id: 'I7', spans: [{ eventId: 'e9', quote: 'it was the cache' }] }] });
    const result = await writer.write(REF, [], { retracted: ['e9'], sessionCap: 15 });
    expect(result).toMatchObject({ raced: false, retracted: 1, created: 0 });
    expect(tx.archive).toHaveBeenCalledWith('I7', 'the person rejected the conclusion it rests on in the next prompt');
  });

  it('writes nothing when another run already wrote the window', async () => {
    const { writer, tx } = setUp({ raced: true });
    expect(
      await writer.write(REF, [verified('decision:money:cents', 'Money')], { retracted: [], sessionCap: 15 }),
    ).toEqual({
      raced: true,
    });
    expect(tx.create).not.toHaveBeenCalled();
  });
});
