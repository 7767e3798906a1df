import type {
  DB,
  HygieneReviewRepository,
  HygieneRunRepository,
  HygieneRunRow,
  OpenItemWriter,
  PassOutcome,
} from '@memex/db';
import type { HygieneItem } from '@memex/domain';
import type { Transaction } from 'kysely';
import { fake } from '../../../test/support/fakes';
import { HygienePassService } from './hygiene-pass.service';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26);
const TRX = { trx: true } as unknown as Transaction<DB>;
const OPEN = (async () => undefined) as unknown as OpenItemWriter;

/** An ImplementationFact last touched 200 days ago: past its 30 days, so stale-by-age moves it. */
function oldFact(id: string): HygieneItem {
  const long = NOW - 200 * DAY;
  return {
    id,
    type: 'ImplementationFact',
    status: 'active',
    title: `The cart rounds totals half-even (${id})`,
    facts: 'Cart totals are rounded half-even to whole cents before tax is added.',
    factsLength: 71,
    rationaleLength: 40,
    impactLength: null,
    fileCount: 1,
    tagCount: 0,
    confidence: 0.9,
    importance: 3,
    dedupHint: null,
    supersededBy: null,
    evidenceCount: 1,
    manual: false,
    createdAt: long,
    updatedAt: long,
    lastReinforcedAt: null,
    resolvedAt: null,
    statusChangedAt: long,
  };
}

const RUN = { id: 'run-1', project_id: 'P1', mode: 'apply' } as HygieneRunRow;

function setUp({ busy = false, status = 'queued' as 'queued' | 'completed', held = [] as string[] } = {}) {
  const items = [oldFact('i1'), oldFact('i2')];
  const outcome: PassOutcome = { applied: [], skipped: 0, proposals: 0 };
  const runs = fake<HygieneRunRepository>(
    {
      withPassLock: async <T>(
        _projectId: string,
        pass: (trx: Transaction<DB>, open: OpenItemWriter) => Promise<T>,
      ): Promise<{ busy: true } | { busy: false; value: T }> =>
        busy ? { busy: true } : { busy: false, value: await pass(TRX, OPEN) },
      statusFor: async () => status,
      markRunning: async () => undefined,
      items: async () => items,
      recordPass: async () => outcome,
    },
    'runs',
  );
  const review = fake<HygieneReviewRepository>({ heldRules: async () => new Set(held) }, 'review');
  return { service: new HygienePassService(runs, review), runs, review, outcome };
}

describe('HygienePassService.pass', () => {
  it('reads, judges and records in the one transaction the pass lock gives it, with the item writer it opens', async () => {
    const { service, runs, outcome } = setUp();
    const result = await service.pass(RUN, NOW);
    expect(result).toMatchObject({ busy: false, alreadyDone: false, outcome, itemsScanned: 2 });
    expect(runs.markRunning).toHaveBeenCalledWith(TRX, 'run-1');
    expect(runs.items).toHaveBeenCalledWith(TRX, 'P1');
    const [trx, open, run, found] = runs.recordPass.mock.calls[0]!;
    expect([trx, open, run]).toEqual([TRX, OPEN, { id: 'run-1', projectId: 'P1', mode: 'apply' }]);
    expect(found.transitions.map((t) => [t.itemId, t.rule, t.to])).toEqual([
      ['i1', 'stale-by-age', 'stale'],
      ['i2', 'stale-by-age', 'stale'],
    ]);
  });

  it('leaves out a move an operator held for that item and rule', async () => {
    const { service, runs } = setUp({ held: ['i1:stale-by-age'] });
    await service.pass(RUN, NOW);
    const [, , , found] = runs.recordPass.mock.calls[0]!;
    expect(found.transitions.map((t) => t.itemId)).toEqual(['i2']);
  });

  it('answers busy, touching nothing, while another pass of the project holds the lock', async () => {
    const { service, runs } = setUp({ busy: true });
    expect(await service.pass(RUN, NOW)).toEqual({ busy: true });
    expect(runs.items).not.toHaveBeenCalled();
  });

  it('does nothing for a run another worker already completed', async () => {
    const { service, runs } = setUp({ status: 'completed' });
    expect(await service.pass(RUN, NOW)).toEqual({ busy: false, alreadyDone: true });
    expect(runs.markRunning).not.toHaveBeenCalled();
    expect(runs.recordPass).not.toHaveBeenCalled();
  });
});
