import { EnrichmentModule, EnrichmentService } from '@memex/feature-enrichment';
import type { RawEventInput } from '@memex/domain';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { ScriptedLlm, modelAnswer, type Step } from '../../../test/support/scripted-llm';
import { useTestApp } from '../../../test/support/use-test-app';

/**
 * Enrichment against a scripted OpenAI-compatible endpoint: the endpoint, the file's test app
 * configured for it (a daily token and money budget included), and what the tests read back.
 */
export function useScriptedEnrichment() {
  const llm = new ScriptedLlm();
  beforeAll(() => llm.start());
  afterAll(() => llm.stop());

  const ctx = useTestApp([EnrichmentModule], {
    env: () => ({
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'scripted-model',
      LLM_TIMEOUT_MS: '1000',
      LLM_MAX_RETRIES: '2',
      LLM_DAILY_TOKENS: '100000',
      // $10 per million tokens either way, and $0.50 a day: a cost budget to reach in one test.
      LLM_PRICES: JSON.stringify({ 'scripted-model': { input: 10, output: 10 } }),
      LLM_DAILY_COST_USD: '0.5',
    }),
  });

  const service = () => ctx.server.app.get(EnrichmentService);

  beforeEach(() => {
    llm.requests.length = 0;
  });

  async function itemsOf(sessionId: string) {
    return ctx.database.db
      .selectFrom('memory_items')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('id')
      .execute();
  }

  /** Who wrote each history entry of an item, oldest first. */
  async function actorsOf(itemId: string): Promise<string[]> {
    const rows = await ctx.database.db
      .selectFrom('item_history')
      .select('actor')
      .where('item_id', '=', itemId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.actor);
  }

  /**
   * Stores a session of `events` and queues the model's answer for its window: `items`, sent
   * as `step` says (slowly, with its usage). The session's id.
   */
  async function answeredSession(
    name: string,
    events: RawEventInput[],
    items: unknown[],
    step: Omit<Step, 'content'> = {},
    projectId = ctx.project.projectId,
  ): Promise<string> {
    const sessionId = await storeEvents(ctx.server.app, projectId, name, events);
    llm.enqueue({ content: modelAnswer(items), ...step });
    return sessionId;
  }

  return { llm, ctx, service, itemsOf, actorsOf, answeredSession };
}

export const decisionEvent = () =>
  rawEvent('response', 'We decided to keep PostgreSQL as the only datastore because it covers queues and search.');
export const todoEvent = () =>
  rawEvent('prompt', 'Remember to rotate the webhook signing secret before the launch on Monday.');

export function item(over: Record<string, unknown>) {
  return {
    type: 'Decision',
    title: 'Keep PostgreSQL as the only datastore',
    facts: 'PostgreSQL covers queues and search, so no second datastore.',
    schemaKey: 'root/decisions',
    dedupHint: 'decision:database:postgres-only-datastore',
    importance: 5,
    confidence: 0.9,
    evidence: [],
    ...over,
  };
}
