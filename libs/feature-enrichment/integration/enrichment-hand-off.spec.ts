import { EnrichmentModule, EnrichmentService } from '@memex/feature-enrichment';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { useTestApp } from '../../../test/support/use-test-app';

const ctx = useTestApp([EnrichmentModule]);

const OFFER = 'Offered at the end, not taken up: Want me to also set `gc.auto 0` on your repo now?';

function todos(sessionId: string) {
  return ctx.database.db
    .selectFrom('memory_items')
    .select(['id', 'title', 'status', 'resolved_at'])
    .where('session_id', '=', sessionId)
    .where('type', '=', 'Todo')
    .execute();
}

async function enrich(sessionId: string, run: string) {
  return ctx.server.app.get(EnrichmentService).enrichSession(ctx.project.projectId, sessionId, run);
}

describe('an offer the last turn ends on', () => {
  it('is an open Todo until a later window shows the reply, which resolves that item rather than adding one', async () => {
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'hand-off', [
      rawEvent('prompt', 'git status in the worktree says the index is corrupt, can you document it?'),
      rawEvent(
        'response',
        'Done. Added the worktree GC corruption issue with its recovery steps to `docs/KNOWN_LIMITATIONS.md`.\n\n' +
          'Want me to also set `gc.auto 0` on your repo now?',
      ),
    ]);
    await enrich(sessionId, 'run-1');
    const [open] = await todos(sessionId);
    expect(open).toMatchObject({ title: OFFER, status: 'active', resolved_at: null });

    await storeEvents(ctx.server.app, ctx.project.projectId, 'hand-off', [
      rawEvent('prompt', 'yes please'),
      rawEvent('command', 'git config gc.auto 0'),
      rawEvent('response', 'Set `gc.auto 0` on this repository: git no longer prunes loose objects by itself.'),
    ]);
    await enrich(sessionId, 'run-2');
    const after = await todos(sessionId);
    expect(after.filter((t) => t.title === OFFER)).toEqual([
      expect.objectContaining({ id: open!.id, status: 'active', resolved_at: expect.any(Date) }),
    ]);
  });
});
