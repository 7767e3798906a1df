import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EntityRepository } from '@memex/db';
import { ITEM_MENTIONS_COUNTED } from '@memex/entities';
import { EnrichmentService } from '@memex/feature-enrichment';
import { transcriptToEvents } from '@memex/transcript';
import { EnrichmentWorkerModule } from '../../apps/enrichment-worker/src';
import { storeEvents } from '../support/events';
import { patternsHolding } from '../support/patterns';
import { useTestApp } from '../support/use-test-app';

// The enrichment worker fills the entity store after each window, from the events it read and
// the items it wrote; small windows, so a failure and its fix land in different windows.
const ctx = useTestApp([EnrichmentWorkerModule], { env: { ENRICHMENT_WINDOW_EVENTS: '10' } });
const LIVE = ['active', 'stale', 'review'];

function transcript(name: string) {
  return transcriptToEvents(readFileSync(join(__dirname, '../fixtures/claude-code', name), 'utf8'));
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
});
