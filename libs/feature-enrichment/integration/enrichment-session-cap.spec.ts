import { EnrichmentModule, EnrichmentService } from '@memex/feature-enrichment';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { useTestApp } from '../../../test/support/use-test-app';

// A session keeps at most two extracted items here, so a test can watch them compete.
const ctx = useTestApp([EnrichmentModule], { env: { ENRICHMENT_SESSION_ITEMS: '2' } });

function live(sessionId: string) {
  return ctx.database.db
    .selectFrom('memory_items')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('status', '=', 'active')
    .orderBy('salience', 'desc')
    .execute();
}

function historyOf(itemId: string) {
  return ctx.database.db
    .selectFrom('item_history')
    .select(['change', 'reason', 'actor'])
    .where('item_id', '=', itemId)
    .orderBy('id')
    .execute();
}

async function enrich(sessionId: string, run: string) {
  return ctx.server.app.get(EnrichmentService).enrichSession(ctx.project.projectId, sessionId, run);
}

describe('a session keeps its most salient items (ENRICHMENT_SESSION_ITEMS)', () => {
  it('writes only what fits, and archives what more salient items later displace', async () => {
    const first = [
      rawEvent('prompt', 'Always run database migrations through the migrator, never by hand.'),
      rawEvent('prompt', "Let's use integer cents for money instead of floats."),
      rawEvent('prompt', 'We need to keep the cart free of side effects for now.'),
    ];
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'cap', first);
    const report = await enrich(sessionId, 'run-1');
    expect(report).toMatchObject({ created: 2, capped: 1, displaced: 0 });
    const kept = await live(sessionId);
    expect(kept.map((i) => i.title)).toEqual([
      'Always run database migrations through the migrator, never by hand',
      "Let's use integer cents for money instead of floats",
    ]);
    expect(kept.every((i) => i.salience !== null && i.salience > 0)).toBe(true);

    // Two self-reports later in the session outrank both: they take the session's two places.
    await storeEvents(ctx.server.app, ctx.project.projectId, 'cap', [
      rawEvent('response', '[MEMORY: decision: Store every amount as integer cents in the ledger service]'),
      // A point of its own: a restatement of a held item would reinforce or replace that item instead.
      rawEvent('response', '[MEMORY: convention: Every API handler validates its request body with zod]'),
    ]);
    expect(await enrich(sessionId, 'run-2')).toMatchObject({ created: 2, displaced: 2 });
    expect((await live(sessionId)).map((i) => i.salience)).toEqual([1, 1]);
    const displaced = await historyOf(kept[0]!.id);
    expect(displaced.at(-1)).toEqual({
      change: 'archived',
      reason: 'displaced by more salient items of its session (it keeps 2)',
      actor: 'enrichment:local',
    });
    // Archived, not deleted: search and history still have it.
    const row = await ctx.database.db
      .selectFrom('memory_items')
      .select('status')
      .where('id', '=', kept[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('archived');
  });

  it('archives an item the person rejected in the next window, and keeps the rest', async () => {
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'retract', [
      rawEvent('prompt', 'why is this happy locally but failing in ci?'),
      rawEvent('response', 'The issue is that CI is running on an older commit that still had the lint errors.'),
    ]);
    await enrich(sessionId, 'run-a');
    const [wrong] = await live(sessionId);
    expect(wrong?.title).toBe('The issue is that CI is running on an older commit that still had the lint errors');

    await storeEvents(ctx.server.app, ctx.project.projectId, 'retract', [
      rawEvent('prompt', 'ok. uh. no. the ci is running on the current commit, it checks the merge with main'),
      rawEvent('response', 'Let me look at the workflow again.'),
    ]);
    expect(await enrich(sessionId, 'run-b')).toMatchObject({ retracted: 1 });
    expect(await live(sessionId)).toEqual([]);
    expect((await historyOf(wrong!.id)).at(-1)).toMatchObject({
      change: 'archived',
      reason: 'the person rejected the conclusion it rests on in the next prompt',
    });
  });
});
