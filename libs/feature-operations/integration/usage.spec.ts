import { OperationsModule } from '@memex/feature-operations';
import { ModelUsageRepository, ProjectRepository } from '@memex/db';
import type { ErrorBody } from '../../../test/support/http';
import type { StatusView, UsageView } from '@memex/domain';
import { rawEvent, storeEvents } from '../../../test/support/events';
import { request } from '../../../test/support/http';
import { ADMIN_TOKEN } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';

const ctx = useTestApp([OperationsModule], {
  env: { ENRICHMENT_ENGINE: 'claude-code', LLM_DAILY_TOKENS: '5000', LLM_DAILY_COST_USD: '1.5' },
});

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const entry = (tokens: number, costUsd: number | null) => ({
  tokens,
  promptTokens: tokens - 100,
  completionTokens: 100,
  costUsd,
  calls: 1,
});

describe('GET /api/v2/usage', () => {
  it("shows the project's spend per day and engine against its budgets", async () => {
    const usage = ctx.server.app.get(ModelUsageRepository);
    await usage.record(ctx.project.projectId, today(), 'claude-code', entry(3000, 0.4));
    await usage.record(ctx.project.projectId, today(), 'claude-code', entry(2500, 0.5));
    await usage.record(ctx.project.projectId, today(), 'openai', entry(1000, null));
    await usage.record(ctx.project.projectId, daysAgo(3), 'claude-code', entry(700, 0.1));
    await usage.record(ctx.project.projectId, daysAgo(40), 'claude-code', entry(9999, 9));
    const other = await ctx.server.app.get(ProjectRepository).createWithKey('other');
    await usage.record(other.projectId, today(), 'claude-code', entry(123456, 99));

    const res = await request<UsageView>(`${ctx.server.url}/api/v2/usage?days=7`, { key: ctx.project.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      projectId: ctx.project.projectId,
      engine: { name: 'claude-code', model: 'haiku' },
      budget: { dailyTokens: 5000, dailyCostUsd: 1.5 },
      today: { day: today(), tokens: 6500, left: { tokens: 0 }, spent: 'daily-token-budget' },
    });
    expect(res.body.today.costUsd).toBeCloseTo(0.9, 10);
    expect(res.body.today.left.costUsd).toBeCloseTo(0.6, 10);
    // Newest day first; a day whose calls were never priced stays unknown; 40 days ago is outside the 7.
    expect(res.body.days.map((d) => [d.day, d.engine, d.tokens, d.calls])).toEqual([
      [today(), 'claude-code', 5500, 2],
      [today(), 'openai', 1000, 1],
      [daysAgo(3), 'claude-code', 700, 1],
    ]);
    expect(res.body.days[1]!.costUsd).toBeNull();
  });

  it('refuses days that are not a whole number from 1 to 90, and parameters it does not know', async () => {
    for (const query of ['days=0', 'days=91', 'days=0x1f', 'days=7.5', 'days=', 'since=2026-01-01']) {
      const res = await request<ErrorBody>(`${ctx.server.url}/api/v2/usage?${query}`, { key: ctx.project.apiKey });
      expect({ query, status: res.status, code: res.body.error.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
  });

  it('wants a project key, or the admin token with the project it names (the dashboard’s Health page)', async () => {
    expect((await request(`${ctx.server.url}/api/v2/usage`)).status).toBe(401);
    expect((await request(`${ctx.server.url}/api/v2/status`, { key: 'mx_nope' })).status).toBe(401);
    const asAdmin = (project?: string) =>
      fetch(`${ctx.server.url}/api/v2/usage?days=7`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(project ? { 'x-memex-project': project } : {}) },
      });
    const named = await asAdmin(ctx.project.projectId);
    expect(named.status).toBe(200);
    expect(((await named.json()) as UsageView).projectId).toBe(ctx.project.projectId);
    expect((await asAdmin()).status).toBe(400);
  });
});

describe('GET /api/v2/status', () => {
  it('says where the memory stands: sessions behind, items by state, the last enrichment, spend today', async () => {
    const project = await ctx.server.app.get(ProjectRepository).createWithKey('status');
    await storeEvents(ctx.server.app, project.projectId, 'behind', [rawEvent('prompt', 'Not enriched yet.')]);
    const res = await request<StatusView>(`${ctx.server.url}/api/v2/status`, { key: project.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      projectId: project.projectId,
      engine: { name: 'claude-code', model: 'haiku' },
      sessions: { total: 1, lagging: 1 },
      items: { live: 0, review: 0, archived: 0 },
      lastEnrichmentAt: null,
      usageToday: { tokens: 0, costUsd: null, spent: null },
    });
    expect(Date.parse(res.body.sessions.lastEventAt!)).not.toBeNaN();
    expect((await request(`${ctx.server.url}/api/v2/status?x=1`, { key: project.apiKey })).status).toBe(400);
  });
});
