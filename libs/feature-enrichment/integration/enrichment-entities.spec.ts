import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { EntityRepository } from '@memex/db';
import { ITEM_MENTIONS_COUNTED } from '@memex/entities';
import { EnrichmentModule, EnrichmentService, EntityCatchUp } from '@memex/feature-enrichment';
import { transcriptToEvents } from '@memex/transcript';
import { storeEvents } from '../../../test/support/events';
import { patternsHolding } from '../../../test/support/patterns';
import { useTestApp } from '../../../test/support/use-test-app';

// The enrichment worker fills the entity store after each window, from the events it read and
// the items it wrote; small windows, so a failure and its fix land in different windows.
const ctx = useTestApp([EnrichmentModule], { env: { ENRICHMENT_WINDOW_EVENTS: '10' } });
const LIVE = ['active', 'stale', 'review'];

function transcript(name: string) {
  return transcriptToEvents(readFileSync(join(__dirname, '../../../test/fixtures/claude-code', name), 'utf8'));
}

describe('the enrichment worker and the entity store', () => {
  it('records files, the error and its fix across windows, once however often it runs', async () => {
    const { projectId } = ctx.project;
    const events = transcript('fix-type-errors.jsonl');
    const sessionId = await storeEvents(ctx.server.app, projectId, 'fix-type-errors', events);
    const report = await ctx.server.app.get(EnrichmentService).enrichSession(projectId, sessionId, 'run-1');
    expect(report.windows).toBeGreaterThan(2);

    const store = ctx.server.app.get(EntityRepository);
    const [file] = await store.findByNames(projectId, ['test_cache.py'], LIVE, 1, ITEM_MENTIONS_COUNTED);
    expect(file).toMatchObject({ kind: 'file', name: 'test/test_cache.py' });
    expect(await store.sessionEditedFiles(projectId, sessionId)).toEqual(['test/test_cache.py']);

    const [pattern] = await patternsHolding(store, projectId, 'call-non-callable');
    expect(pattern).toMatchObject({ occurrences: 2, sessions: 1 });
    expect(pattern!.fixes.map((f) => f.summary)).toEqual(['editing test/test_cache.py']);

    // A second run finds nothing past the cursor; re-recording a window changes no count.
    const mentions = file!.mentions;
    await ctx.server.app.get(EnrichmentService).enrichSession(projectId, sessionId, 'run-2');
    expect((await store.findByNames(projectId, ['test_cache.py'], LIVE, 1, ITEM_MENTIONS_COUNTED))[0]!.mentions).toBe(
      mentions,
    );
  });

  it("reads again what a failed entity update left out, even after the session's last window", async () => {
    const { projectId } = ctx.project;
    const db = ctx.database.db;
    const recorded = async (id: string) => {
      const [mentions, errors] = await Promise.all([
        db.selectFrom('entity_mentions').select('event_id').where('session_id', '=', id).execute(),
        db.selectFrom('error_occurrences').select('event_id').where('session_id', '=', id).execute(),
      ]);
      return { mentions: mentions.length, errors: errors.length };
    };
    // The database refuses the entity store's writes while the session is enriched.
    await sql`create function memex_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'entity store unavailable'; end $$`.execute(db);
    await sql`create trigger memex_test_refuse before insert on entity_mentions
      for each statement execute function memex_test_refuse()`.execute(db);
    let sessionId: string;
    try {
      // The same session's events again under ids of their own: another session of the project.
      const events = transcript('fix-type-errors.jsonl').map((e) => ({ ...e, eventId: `lost-${e.eventId}` }));
      sessionId = await storeEvents(ctx.server.app, projectId, 'lost-entities', events);
      const report = await ctx.server.app.get(EnrichmentService).enrichSession(projectId, sessionId, 'run-lost');
      // The items are written all the same; the entity store has nothing of the session.
      expect(report.windows).toBeGreaterThan(2);
      expect(await recorded(sessionId)).toEqual({ mentions: 0, errors: 0 });
    } finally {
      await sql`drop trigger memex_test_refuse on entity_mentions`.execute(db);
      await sql`drop function memex_test_refuse()`.execute(db);
    }

    // No job will come for this session again; the catch-up reads it from what is stored.
    const catchUp = ctx.server.app.get(EntityCatchUp);
    expect(await catchUp.runOnce()).toBe(1);
    const after = await recorded(sessionId);
    expect(after.mentions).toBeGreaterThan(0);
    expect(after.errors).toBe(2);
    expect(await catchUp.runOnce()).toBe(0);
  });
});
