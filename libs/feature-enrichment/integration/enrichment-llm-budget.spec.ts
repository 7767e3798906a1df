import { ModelUsageRepository, ProjectRepository } from '@memex/db';
import { rawEvent, storeEvents } from '../../../test/support/events';
import type { Step } from '../../../test/support/scripted-llm';
import { decisionEvent, item, useScriptedEnrichment } from './scripted-enrichment';

const { llm, ctx, service, itemsOf, actorsOf, answeredSession } = useScriptedEnrichment();

/**
 * A project of its own (`name`) whose first session's model call used `usage`, and its second
 * session, saying `next`, stored after that call: the report of the call and the second session.
 */
async function afterSpending(name: string, usage: Step['usage'], next: string) {
  const other = await ctx.server.app.get(ProjectRepository).createWithKey(name);
  const d = decisionEvent();
  const evidence = [{ eventId: d.eventId, quote: 'PostgreSQL as the only datastore' }];
  const s1 = await answeredSession(`${name}-1`, [d], [item({ evidence })], { usage }, other.projectId);
  const spent = await service().enrichSession(other.projectId, s1, `run-${name}-1`);
  const s2 = await storeEvents(ctx.server.app, other.projectId, `${name}-2`, [rawEvent('prompt', next)]);
  return { other, spent, s2 };
}

describe('a model within its daily budgets', () => {
  it('falls back to the local engine once a project has spent its daily token budget', async () => {
    const { other, spent, s2 } = await afterSpending(
      'budget',
      { prompt_tokens: 99_000, completion_tokens: 2_000 },
      'Always validate webhook signatures before parsing the body.',
    );
    expect(spent).toMatchObject({ engine: 'openai', fallback: null });
    const calls = llm.requests.length;
    const report = await service().enrichSession(other.projectId, s2, 'run-budget-2');
    expect(report).toMatchObject({ fallback: 'daily-token-budget', created: 1, tokens: 0 });
    expect(llm.requests).toHaveLength(calls);
    const [local] = await itemsOf(s2);
    expect(local).toMatchObject({ type: 'Convention' });
    expect(await actorsOf(local!.id)).toEqual(['enrichment:local']);
  });

  it('lets calls made at once take the last of a budget one at a time, never all of them', async () => {
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('last-of-budget');
    const day = new Date().toISOString().slice(0, 10);
    // 98,000 of the 100,000 tokens spent: room for one window's call, not two.
    await ctx.server.app.get(ModelUsageRepository).record(other.projectId, day, 'openai', {
      tokens: 98_000,
      promptTokens: 98_000,
      completionTokens: 0,
      costUsd: null,
      calls: 1,
    });
    const sessions = await Promise.all(
      ['at-once-1', 'at-once-2', 'at-once-3'].map((name) =>
        storeEvents(ctx.server.app, other.projectId, name, [
          rawEvent('prompt', `We decided ${name} keeps its retries in the outbox table.`),
        ]),
      ),
    );
    // The call that goes ahead spends the last 2,000 tokens, so a call that reaches the budget only
    // after it has returned (on a slow machine, embedded mode's one connection) is refused too:
    // one call whether the others overlap it or come after it.
    llm.fallback = { content: '{"items":[]}', delayMs: 400, usage: { prompt_tokens: 1900, completion_tokens: 100 } };
    try {
      const calls = llm.requests.length;
      const reports = await Promise.all(
        sessions.map((id, i) => service().enrichSession(other.projectId, id, `run-at-once-${i}`)),
      );
      // Calls are counted by the window they asked about, not by HTTP requests: on a slow machine
      // (embedded mode's database works on the test's own thread) the 400 ms answer can pass the
      // client's 1 s timeout, and the client sends the same request again, as it should.
      const asked = new Set(llm.requests.slice(calls).map((r) => JSON.stringify(r.messages)));
      expect(asked.size).toBe(1);
      expect(reports.filter((r) => r.fallback === 'daily-token-budget')).toHaveLength(2);
      // Nothing is held once the calls have returned.
      const held = await ctx.database.db
        .selectFrom('model_reservations')
        .select('id')
        .where('project_id', '=', other.projectId)
        .execute();
      expect(held).toEqual([]);
    } finally {
      llm.fallback = { status: 500, content: 'script exhausted' };
    }
  });

  it('falls back to the local engine once a project has spent its daily money budget', async () => {
    // 60,000 tokens at $10 a million: $0.60, past the $0.50 budget and well within the token one.
    const { other, s2 } = await afterSpending(
      'money',
      { prompt_tokens: 50_000, completion_tokens: 10_000 },
      'Never log request bodies in the webhook handler.',
    );
    const calls = llm.requests.length;
    expect(await service().enrichSession(other.projectId, s2, 'run-money-2')).toMatchObject({
      fallback: 'daily-cost-budget',
      created: 1,
    });
    expect(llm.requests).toHaveLength(calls);
  });
});
