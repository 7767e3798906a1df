import { candidateItemSchema, type VerifiedItem } from '@memex/enrichment';
import { EnrichmentModule, WindowWriter } from '@memex/feature-enrichment';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { useTestApp } from '../../../test/support/use-test-app';

// Windows written straight through the repository, with candidates made to collide: the
// engines rarely produce these shapes on purpose, but a model can.
const ctx = useTestApp([EnrichmentModule]);

const PRISMA = 'All database access goes through Prisma.';
const KYSELY = 'All database access goes through Kysely.';

function said(
  facts: string,
  hint: string,
  event: string,
  salience = 0.5,
  type: VerifiedItem['candidate']['type'] = 'Decision',
): VerifiedItem {
  const quote = facts.slice(0, 30);
  return {
    candidate: candidateItemSchema.parse({
      type,
      title: facts.replace(/\.$/, ''),
      facts,
      schemaKey: 'root/db',
      dedupHint: hint,
      importance: 3,
      confidence: 0.6,
      salience,
      evidence: [{ eventId: event, quote }],
    }),
    spans: [{ eventId: event, quote }],
  };
}

async function session(
  name: string,
): Promise<{ id: string; write: (items: VerifiedItem[], cap?: number) => Promise<unknown> }> {
  const id = await storeEvents(ctx.server.app, ctx.project.projectId, name, [rawEvent('prompt', 'hello')]);
  let cursor = 0;
  return {
    id,
    write: async (items, cap = 15) => {
      cursor += 1;
      return ctx.server.app.get(WindowWriter).write(
        {
          projectId: ctx.project.projectId,
          sessionId: id,
          expectedCursor: cursor - 1,
          newCursor: cursor,
          windowEndedAt: new Date(),
          actor: 'enrichment:test',
          runId: `run-${name}-${cursor}`,
        },
        items,
        { retracted: [], sessionCap: cap },
      );
    },
  };
}

function itemsOf(hint: string) {
  return ctx.database.db
    .selectFrom('memory_items')
    .select(['id', 'title', 'facts', 'status', 'evidence_refs', 'superseded_by'])
    .where('project_id', '=', ctx.project.projectId)
    .where('dedup_hint', '=', hint)
    .orderBy('created_at')
    .execute();
}

describe('a window writes each dedup hint once', () => {
  it('makes one item of two sayings of a new hint in one window', async () => {
    const s = await session('twice');
    expect(
      await s.write([said(KYSELY, 'decision:db:twice', 'a1'), said(KYSELY, 'decision:db:twice', 'a2')]),
    ).toMatchObject({
      created: 1,
      reinforced: 0,
    });
    const rows = await itemsOf('decision:db:twice');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.evidence_refs).toEqual(['a1', 'a2']);
  });

  it('leaves no replaced decision active when a window repeats then changes it', async () => {
    const s = await session('change');
    await s.write([said(KYSELY, 'decision:db:change', 'b1')]);
    expect(
      await s.write([said(KYSELY, 'decision:db:change', 'b2'), said(PRISMA, 'decision:db:change', 'b3')]),
    ).toMatchObject({
      created: 1,
      superseded: 1,
      reinforced: 0,
    });
    const rows = await itemsOf('decision:db:change');
    expect(rows.map((r) => [r.facts, r.status])).toEqual([
      [KYSELY, 'superseded'],
      [PRISMA, 'active'],
    ]);
    expect(rows[0]!.superseded_by).toBe(rows[1]!.id);
  });

  it('titles a reinforced item by the later saying when that says what the point has become', async () => {
    const s = await session('became');
    const note = (facts: string, event: string) =>
      said(facts, 'implementation:release:script', event, 0.5, 'ImplementationFact');
    await s.write([note('The release script publishes with npm publish.', 'd1')]);
    await s.write([note('The release script publishes every package with npm publish.', 'd2')]);
    expect((await itemsOf('implementation:release:script')).map((r) => r.title)).toEqual([
      'The release script publishes with npm publish',
    ]);
    await s.write([note('The release script now uses bun publish instead of npm publish.', 'd3')]);
    const rows = await itemsOf('implementation:release:script');
    expect(rows.map((r) => [r.title, r.facts, r.status])).toEqual([
      [
        'The release script now uses bun publish instead of npm publish',
        'The release script now uses bun publish instead of npm publish.',
        'active',
      ],
    ]);
    expect(rows[0]!.evidence_refs).toEqual(['d1', 'd2', 'd3']);
    const history = await ctx.database.db
      .selectFrom('item_history')
      .select(['change', 'reason', 'before', 'after'])
      .where('item_id', '=', rows[0]!.id)
      .where('change', '=', 'reinforced')
      .orderBy('id')
      .execute();
    expect(history.map((h) => h.reason)).toEqual([
      'same dedup hint implementation:release:script seen again',
      'same dedup hint implementation:release:script seen again, retitled by what the point has become',
    ]);
    expect(history[1]).toMatchObject({
      before: expect.objectContaining({ title: 'The release script publishes with npm publish' }),
      after: expect.objectContaining({ title: 'The release script now uses bun publish instead of npm publish' }),
    });
  });

  it('never archives an item it reinforces in the same window to make room', async () => {
    const s = await session('room');
    await s.write([said(KYSELY, 'decision:db:weak', 'c1', 0.1), said(PRISMA, 'decision:db:strong', 'c2', 0.9)], 2);
    const result = await s.write(
      [said(KYSELY, 'decision:db:weak', 'c3', 0.1), said('Money is integer cents.', 'decision:db:money', 'c4', 0.5)],
      2,
    );
    expect(result).toMatchObject({ reinforced: 1, created: 0, capped: 1, displaced: 0 });
    expect((await itemsOf('decision:db:weak')).map((r) => r.status)).toEqual(['active']);
    expect(await itemsOf('decision:db:money')).toEqual([]);
  });
});
