import { JOBS } from '@memex/queue';
import { MODEL_OUTPUT_JSON_SCHEMA, NEVER_A_TITLE, WHERE_TO_LOOK } from '@memex/enrichment';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { request } from '../../../test/support/http';
import { modelAnswer, type ChatRequestBody } from '../../../test/support/scripted-llm';
import { ADMIN_TOKEN } from '../../../test/support/test-app';
import { waitFor } from '../../../test/support/wait';
import { decisionEvent, item, todoEvent, useScriptedEnrichment } from './scripted-enrichment';

const { llm, ctx, service, itemsOf, actorsOf, answeredSession } = useScriptedEnrichment();

describe('enrichment with an OpenAI-compatible model', () => {
  it('stores what the model found, with verified evidence, and records the tokens', async () => {
    const [d, t] = [decisionEvent(), todoEvent()];
    const sessionId = await answeredSession(
      'good',
      [d, t],
      [
        item({ evidence: [{ eventId: d.eventId, quote: 'keep PostgreSQL as the only datastore' }] }),
        item({
          type: 'Todo',
          title: 'Rotate the webhook signing secret before launch',
          facts: 'Rotate the webhook signing secret before the Monday launch.',
          schemaKey: 'root/todos',
          dedupHint: 'todo:webhooks:rotate-signing-secret',
          importance: 3,
          evidence: [{ eventId: t.eventId, quote: 'rotate the webhook signing   secret' }],
        }),
      ],
      { usage: { prompt_tokens: 900, completion_tokens: 120 } },
    );

    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-good');
    expect(report).toMatchObject({ engine: 'openai', created: 2, rejected: 0, tokens: 1020, modelCalls: 1 });
    const stored = await itemsOf(sessionId);
    expect(stored.map((i) => i.type).sort()).toEqual(['Decision', 'Todo']);
    expect(stored.find((i) => i.type === 'Todo')?.evidence_spans).toEqual([
      { eventId: t.eventId, quote: 'rotate the webhook signing secret' },
    ]);

    const [sent] = llm.requests as [ChatRequestBody];
    expect(sent.model).toBe('scripted-model');
    // Structured outputs: the item schema itself, derived from the zod schema.
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'memory_items', schema: MODEL_OUTPUT_JSON_SCHEMA, strict: false },
    });
    expect(sent.messages[1]?.content).toContain(`<event id="${d.eventId}" type="response"`);
    const usage = await ctx.database.db.selectFrom('llm_usage').selectAll().execute();
    expect(usage).toEqual([
      expect.objectContaining({
        project_id: ctx.project.projectId,
        engine: 'openai',
        tokens: 1020,
        prompt_tokens: 900,
        completion_tokens: 120,
        calls: 1,
      }),
    ]);
    // Priced by LLM_PRICES: 1,020 tokens at $10 a million.
    expect(usage[0]!.cost_usd).toBeCloseTo(0.0102, 10);
    // The answer is kept with the window, so a redelivered job need not pay for it again.
    const kept = await ctx.database.db
      .selectFrom('model_windows')
      .selectAll()
      .where('session_id', '=', sessionId)
      .execute();
    expect(kept).toEqual([expect.objectContaining({ engine: 'openai', model: 'scripted-model', tokens: 1020 })]);
    expect(kept[0]!.input_chars).toBeGreaterThan(1000);
  });

  it('reads a session in one run at a time: a job that finds it held comes back later, and the window is paid for once', async () => {
    const d = decisionEvent();
    // A slow model, so the second job arrives while the first run is waiting for it.
    const sessionId = await answeredSession(
      'held',
      [d],
      [
        item({
          dedupHint: 'decision:database:held-session',
          evidence: [{ eventId: d.eventId, quote: 'keep PostgreSQL as the only datastore' }],
        }),
      ],
      { delayMs: 800 },
    );
    // The app's own worker takes the job while the first run waits for the model.
    const first = service().enrichSession(ctx.project.projectId, sessionId, 'run-first');
    await waitFor(async () => llm.requests.length === 1);
    const payload = { projectId: ctx.project.projectId, sessionId };
    await ctx.queue.queue.add(JOBS.enrichSession.name, payload, { jobId: 'held-1' });
    expect(await first).toMatchObject({ created: 1, modelCalls: 1, raced: 0, busy: false });
    await waitFor(async () => (await (await ctx.queue.queue.getJob('held-1'))?.getState()) === 'completed');
    const job = await ctx.queue.queue.getJob('held-1');
    // It came back once the session was free and found nothing left to pay for.
    expect(job?.returnvalue).toMatchObject({ busy: false, windows: 0, modelCalls: 0, raced: 0 });
    expect(llm.requests).toHaveLength(1);
    expect(await itemsOf(sessionId)).toHaveLength(1);
  });

  it('tells the model where sessions state what matters and how to title, and drops a junk title it sends anyway', async () => {
    const d = rawEvent(
      'response',
      "Fixed. Exit code 1\n(eval):1: parse error near '(' came from the heredoc; we decided to quote the commit message instead.",
    );
    const sessionId = await answeredSession(
      'junk-titles',
      [d],
      [
        item({
          dedupHint: 'bugfix:shell:eval-parse-error',
          type: 'BugFix',
          title: "Fix: (eval):1: parse error near '('",
          evidence: [{ eventId: d.eventId, quote: "(eval):1: parse error near '(' came from the heredoc" }],
        }),
        item({
          dedupHint: 'decision:git:quote-commit-message',
          title: 'Quote the commit message instead of a heredoc',
          evidence: [{ eventId: d.eventId, quote: 'we decided to quote the commit message instead' }],
        }),
      ],
    );
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-junk');
    expect(report).toMatchObject({ created: 1, rejected: 1, rejectedBy: { 'junk-title': 1 } });
    expect((await itemsOf(sessionId)).map((i) => i.title)).toEqual(['Quote the commit message instead of a heredoc']);
    const system = String(llm.requests[0]!.messages[0]!.content);
    for (const rule of WHERE_TO_LOOK) expect(system).toContain(rule);
    for (const junk of NEVER_A_TITLE) expect(system).toContain(junk);
  });

  it('rejects items whose quotes are not in the events, or that cite events outside the batch', async () => {
    const d = decisionEvent();
    const sessionId = await answeredSession(
      'hallucinated',
      [d],
      [
        item({
          dedupHint: 'decision:cache:redis',
          title: 'Use Redis',
          evidence: [{ eventId: d.eventId, quote: 'we decided to use Redis for caching' }],
        }),
        item({
          dedupHint: 'decision:queue:kafka',
          title: 'Use Kafka',
          evidence: [{ eventId: 'evt-not-in-batch', quote: 'PostgreSQL as the only datastore' }],
        }),
        item({
          dedupHint: 'decision:db:short',
          title: 'Short quote',
          evidence: [{ eventId: d.eventId, quote: 'PostgreSQL' }],
        }),
      ],
    );
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-bad-spans');
    expect(report).toMatchObject({
      created: 0,
      rejected: 3,
      rejectedBy: { 'no-verified-span': 2, 'event-outside-batch': 1 },
    });
    expect(await itemsOf(sessionId)).toEqual([]);
    const metrics = (await request<string>(`${ctx.server.url}/metrics`, { key: ADMIN_TOKEN })).body;
    expect(metrics).toMatch(/memex_enrichment_items_rejected_total\{reason="no-verified-span"\} 2/);
  });

  it('repairs malformed output once', async () => {
    const d = decisionEvent();
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'repair', [d]);
    llm.enqueue(
      { content: 'Sure! Here are the items: {"items": [' },
      {
        content: modelAnswer([
          item({
            dedupHint: 'decision:database:repaired',
            evidence: [{ eventId: d.eventId, quote: 'PostgreSQL as the only datastore' }],
          }),
        ]),
      },
    );
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-repair');
    expect(report).toMatchObject({ created: 1, modelCalls: 2 });
    const repair = llm.requests[1]!.messages;
    expect(repair[repair.length - 2]).toEqual({ role: 'assistant', content: 'Sure! Here are the items: {"items": [' });
    expect(repair[repair.length - 1]?.content).toContain('not valid JSON');
  });

  it('gives the window to the local engine when the repair is malformed too, counting the tokens', async () => {
    const d = rawEvent('prompt', 'We decided to keep PostgreSQL as the only datastore for queues and search.');
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'malformed', [d]);
    const before = await ctx.database.db.selectFrom('llm_usage').select('tokens').executeTakeFirstOrThrow();
    llm.enqueue({ content: 'not json' }, { content: '{"items": [{"type": "Decision"}]}' });
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-malformed');
    expect(report).toMatchObject({ fallback: 'malformed-output', modelCalls: 2, tokens: 300, created: 1 });
    const [local] = await itemsOf(sessionId);
    expect(local).toMatchObject({ type: 'Decision' });
    expect(await actorsOf(local!.id)).toEqual(['enrichment:local']);
    const after = await ctx.database.db.selectFrom('llm_usage').select('tokens').executeTakeFirstOrThrow();
    expect(after.tokens - before.tokens).toBe(300);
    const metrics = (await request<string>(`${ctx.server.url}/metrics`, { key: ADMIN_TOKEN })).body;
    expect(metrics).toMatch(/memex_enrichment_fallbacks_total\{reason="malformed-output"\} 1/);
  });

  it('gives the window to the local engine when the endpoint still fails after its retries', async () => {
    const d = rawEvent('prompt', 'Always validate webhook signatures before parsing the body.');
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'unavailable', [d]);
    llm.enqueue({ status: 500, content: 'down' }, { status: 500, content: 'down' }, { status: 500, content: 'down' });
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-down');
    expect(report).toMatchObject({ fallback: 'model-unavailable', created: 1, modelCalls: 0 });
    expect((await itemsOf(sessionId)).map((i) => i.type)).toEqual(['Convention']);
  });

  it('reads an answer wrapped in <think> and a fence, with fields a small model left out', async () => {
    const d = decisionEvent();
    const sessionId = await storeEvents(ctx.server.app, ctx.project.projectId, 'small-model', [d]);
    const sloppy = {
      type: 'Decision',
      title: 'PostgreSQL stays the only datastore',
      facts: 'It covers queues and search.',
      evidence: [{ eventId: d.eventId, quote: 'keep PostgreSQL as the only datastore' }],
    };
    llm.enqueue({
      content: `<think>They chose PostgreSQL.</think>\n\`\`\`json\n${modelAnswer([sloppy])}\n\`\`\`\nDone!`,
    });
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-sloppy');
    expect(report).toMatchObject({ created: 1, modelCalls: 1, fallback: null });
    const [stored] = await itemsOf(sessionId);
    expect(stored).toMatchObject({ importance: 3, schema_key: 'root/decisions' });
    expect(stored!.dedup_hint).toMatch(/^decision:/);
  });

  it.each([
    ['429 with retry-after', { status: 429, content: 'slow down', headers: { 'retry-after-ms': '10' } }],
    ['500', { status: 500, content: 'upstream exploded' }],
    ['a timeout', { delayMs: 1500 }],
  ])('retries a model request that failed with %s', async (_label, failure) => {
    const d = decisionEvent();
    const sessionId = await storeEvents(
      ctx.server.app,
      ctx.project.projectId,
      `retry-${llm.requests.length}-${_label}`,
      [d],
    );
    llm.enqueue(failure, {
      content: modelAnswer([item({ evidence: [{ eventId: d.eventId, quote: 'PostgreSQL as the only datastore' }] })]),
    });
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-retry');
    expect(llm.requests).toHaveLength(2);
    expect(report.created + report.reinforced).toBe(1);
  });

  it("puts the project's related dedup hints in the prompt and lets the model supersede a changed decision", async () => {
    const first = await ctx.database.db
      .selectFrom('memory_items')
      .select(['id', 'dedup_hint'])
      .where('dedup_hint', '=', 'decision:database:postgres-only-datastore')
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    const e = rawEvent(
      'response',
      'We are moving search out of PostgreSQL into Meilisearch, so PostgreSQL is no longer the only datastore.',
    );
    const sessionId = await answeredSession(
      'supersede',
      [e],
      [
        item({
          title: 'Search moves to Meilisearch; PostgreSQL stays primary',
          facts: 'Search runs on Meilisearch; PostgreSQL remains the primary datastore.',
          evidence: [{ eventId: e.eventId, quote: 'moving search out of PostgreSQL into Meilisearch' }],
        }),
      ],
    );
    const report = await service().enrichSession(ctx.project.projectId, sessionId, 'run-supersede');
    expect(llm.requests[0]?.messages[1]?.content).toContain('- decision:database:postgres-only-datastore (Decision)');
    expect(report).toMatchObject({ created: 1, superseded: 1 });
    const [replacement] = await itemsOf(sessionId);
    const old = await ctx.database.db
      .selectFrom('memory_items')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(old).toMatchObject({ status: 'superseded', superseded_by: replacement!.id });
    const history = await ctx.database.db
      .selectFrom('item_history')
      .select('change')
      .where('item_id', '=', first.id)
      .execute();
    expect(history.map((h) => h.change)).toContain('superseded');
  });
});
