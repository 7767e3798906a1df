import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnrichmentService } from '@memex/feature-enrichment';
import { EnrichmentWorkerModule } from '../../apps/enrichment-worker/src';
import { IngestApiModule } from '../../apps/ingest-api/src';
import { JOBS } from '@memex/queue';
import { transcriptToEvents } from '@memex/transcript';
import { rawEvent, storeEvents } from '../support/events';
import { request } from '../support/http';
import { useTestApp } from '../support/use-test-app';

const ctx = useTestApp([IngestApiModule, EnrichmentWorkerModule], { env: { ENRICHMENT_DEBOUNCE_MS: '100' } });

const fixture = readFileSync(join(__dirname, '../fixtures/claude-code/session-discount-fix.jsonl'), 'utf8');

async function items(sessionId?: string) {
  let query = ctx.database.db.selectFrom('memory_items').selectAll().where('project_id', '=', ctx.project.projectId);
  if (sessionId) query = query.where('session_id', '=', sessionId);
  return query.orderBy('created_at').orderBy('id').execute();
}

async function waitForCursor(externalId: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const session = await ctx.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    if (session && session.last_event_seq > 0 && session.enrichment_cursor === session.last_event_seq) return session;
    if (Date.now() > deadline) throw new Error(`session ${externalId} not enriched within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('enrichment worker with the local engine', () => {
  it('turns posted transcript events into verified items, with history and a new revision', async () => {
    const events = transcriptToEvents(fixture).map((e) => ({ ...e, eventId: `fx-${e.eventId}` }));
    const res = await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'discount-fix', events },
    });
    expect(res.status).toBe(202);
    const session = await waitForCursor('discount-fix');

    const stored = await items(session.id);
    expect(stored.map((i) => i.type).sort()).toEqual(['BugFix', 'Convention', 'Convention', 'Decision']);
    // The cause, in the assistant's words, and the symptom from the failing run.
    const fix = stored.find((i) => i.type === 'BugFix')!;
    expect(fix.title).toMatch(/root cause was that legacy discount codes have no `rule`/);
    expect(fix.facts).toMatch(/Symptom: TypeError/);
    const byId = new Map(events.map((e) => [e.eventId, e.content.replace(/\s+/g, ' ')]));
    for (const item of stored) {
      expect(item.status).toBe('active');
      expect(item.evidence_spans.length).toBeGreaterThan(0);
      for (const span of item.evidence_spans) expect(byId.get(span.eventId)).toContain(span.quote);
      expect(item.evidence_refs).toEqual([...new Set(item.evidence_spans.map((s) => s.eventId))]);
    }
    // The tests passed after the edit: the fix is confirmed, so the bug is resolved.
    expect(fix.resolved_at).toBeInstanceOf(Date);

    const history = await ctx.database.db.selectFrom('item_history').selectAll().execute();
    expect(history.filter((h) => h.change === 'created')).toHaveLength(stored.length);
    expect(history.every((h) => h.actor === 'enrichment:local' && h.run_id?.startsWith('job:'))).toBe(true);
    const project = await ctx.database.db
      .selectFrom('projects')
      .select('memory_revision')
      .where('id', '=', ctx.project.projectId)
      .executeTakeFirstOrThrow();
    expect(project.memory_revision).toBeGreaterThan(0);
  });

  it('reinforces an item when a later session says the same thing, reviving it if stale', async () => {
    const text = 'Always run database migrations through the migrator, never by hand.';
    await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'conv-1', events: [rawEvent('prompt', text)] },
    });
    const first = await waitForCursor('conv-1');
    const [original] = await items(first.id);
    expect(original).toMatchObject({ type: 'Convention', confidence: 0.8, last_reinforced_at: null });
    await ctx.database.db.updateTable('memory_items').set({ status: 'stale' }).where('id', '=', original!.id).execute();

    const again = rawEvent('prompt', text);
    await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'conv-2', events: [again] },
    });
    const second = await waitForCursor('conv-2');
    expect(await items(second.id)).toEqual([]);

    const reinforced = await ctx.database.db
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', original!.id)
      .executeTakeFirstOrThrow();
    expect(reinforced.status).toBe('active');
    expect(reinforced.confidence).toBeGreaterThan(0.8);
    expect(reinforced.last_reinforced_at).toBeInstanceOf(Date);
    expect(reinforced.evidence_refs).toEqual([...original!.evidence_refs, again.eventId]);
    // The saying never became an item, so no id of one is recorded as merged: history says it.
    expect(reinforced.merged_from).toEqual([]);
    const history = await ctx.database.db
      .selectFrom('item_history')
      .select(['change', 'before', 'after'])
      .where('item_id', '=', original!.id)
      .orderBy('id')
      .execute();
    expect(history.map((h) => h.change)).toEqual(['created', 'reinforced']);
    expect(history[1]?.before).toMatchObject({ status: 'stale' });
    expect(history[1]?.after).toMatchObject({ status: 'active' });
  });

  it('writes nothing twice when a job runs again, or when two runs race on one session', async () => {
    const service = ctx.server.app.get(EnrichmentService);
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'race', [
      rawEvent('prompt', 'We decided to store money as integer cents, never as floats.'),
      rawEvent('response', 'TODO: migrate the legacy price column to integer cents.'),
    ]);
    const [a, b] = await Promise.all([
      service.enrichSession(ctx.project.projectId, sessionId, 'run-a'),
      service.enrichSession(ctx.project.projectId, sessionId, 'run-b'),
    ]);
    expect(a.created + b.created).toBe(2);
    // One run holds the session; the other reads nothing rather than reading it a second time.
    expect([a.busy, b.busy].sort()).toEqual([false, true]);
    expect(a.raced + b.raced).toBe(0);
    const once = await items(sessionId);
    expect(once).toHaveLength(2);

    // The same job delivered again after it finished: nothing left past the cursor.
    const job = JOBS.enrichSession;
    await ctx.queue.queue.add(job.name, { projectId: ctx.project.projectId, sessionId }, { jobId: 'again-1' });
    const again = await service.enrichSession(ctx.project.projectId, sessionId, 'run-c');
    expect(again).toMatchObject({ windows: 0, created: 0, reinforced: 0 });
    expect(await items(sessionId)).toEqual(once);
  });

  it('makes at most a handful of items from a session of routine tool calls', async () => {
    const events = [rawEvent('prompt', 'How does the auth middleware work?')];
    for (let i = 0; i < 25; i += 1) {
      events.push(
        rawEvent('tool_call', `Read src/auth/file${i}.ts`, {
          tool: 'Read',
          input: { file_path: `src/auth/file${i}.ts` },
        }),
      );
      events.push(rawEvent('tool_result', `export const value${i} = ${i};`, { tool: 'Read' }));
    }
    events.push(rawEvent('response', 'The middleware verifies the JWT and attaches the user to the request.'));
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'routine', events);
    const report = await ctx.server.app.get(EnrichmentService).enrichSession(ctx.project.projectId, sessionId, 'run-r');
    expect(report.events).toBe(events.length);
    expect(report.created).toBeLessThanOrEqual(3);
  });

  it('reads in bounded windows and never moves the cursor past events it has not processed', async () => {
    const service = ctx.server.app.get(EnrichmentService);
    const events = Array.from({ length: 450 }, (_, i) =>
      rawEvent('note', `Note number ${i} about the deployment checklist.`),
    );
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'windows', events);
    const report = await service.enrichSession(ctx.project.projectId, sessionId, 'run-w');
    expect(report).toMatchObject({ windows: 3, events: 450 });
    const session = await ctx.database.db
      .selectFrom('sessions')
      .select(['enrichment_cursor', 'last_event_seq'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(session.enrichment_cursor).toBe(session.last_event_seq);
  });
});

describe('a session that ends mid-work', () => {
  it('has its last turn read when it ends, after a Stop left the turn open with nothing new', async () => {
    const complete = (body: object) =>
      request(`${ctx.server.url}/api/v2/sessions/ends-mid-work/complete`, {
        key: ctx.project.apiKey,
        method: 'POST',
        body,
      });
    const events = [
      rawEvent('prompt', 'the ledger totals drift by a cent, fix it'),
      rawEvent(
        'response',
        'The issue is that floats lose cents when amounts are summed, so `src/ledger/money.ts` will store every amount as integer cents instead.',
      ),
      rawEvent('tool_call', 'Edit src/ledger/money.ts', {
        tool: 'Edit',
        toolUseId: 'toolu_end',
        input: { file_path: 'src/ledger/money.ts', old_string: 'a', new_string: 'b' },
      }),
    ];
    await request(`${ctx.server.url}/api/v2/events`, {
      key: ctx.project.apiKey,
      body: { sessionId: 'ends-mid-work', events },
    });
    // Claude Code's Stop: read now, and the turn, ending on an edit, waits for more.
    expect((await complete({})).status).toBe(202);
    const session = await waitForCursor('ends-mid-work');
    expect(await items(session.id)).toEqual([]);
    // SessionEnd, with nothing new: the turn is over and read once.
    expect((await complete({ ended: true })).status).toBe(202);
    const deadline = Date.now() + 15_000;
    while ((await items(session.id)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [note, ...more] = await items(session.id);
    expect(more).toEqual([]);
    expect(note).toMatchObject({ files: ['src/ledger/money.ts'] });
    expect(`${note!.title} ${note!.facts}`).toContain('integer cents');
  });
});
