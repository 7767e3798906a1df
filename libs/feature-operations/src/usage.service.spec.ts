import type { Config } from '@memex/config';
import type { ModelUsageRepository, ProjectStatusRepository } from '@memex/db';
import type { DaySpend } from '@memex/domain';
import { fake } from '../../../test/support/fakes';
import { UsageService } from './usage.service';

const PROJECT = '01JD00000000000000000PROJ1';
const NOW = new Date('2026-11-26T10:00:00Z');

function setUp(config: Partial<Config>, spent: DaySpend) {
  const usage = fake<ModelUsageRepository>({ spentOn: async () => spent, daysSince: async () => [] }, 'usage');
  const status = fake<ProjectStatusRepository>({}, 'status');
  const service = new UsageService(usage, status, { LLM_DAILY_TOKENS: 0, LLM_DAILY_COST_USD: 0, ...config } as Config);
  return { service, usage };
}

describe('UsageService.view', () => {
  it('reads the days of the window, today included, and today against the budgets', async () => {
    const { service, usage } = setUp(
      { LLM_BASE_URL: 'http://llm.local/v1', LLM_MODEL: 'qwen3', LLM_DAILY_TOKENS: 100_000, LLM_DAILY_COST_USD: 0 },
      { tokens: 100_000, costUsd: 0.5 } as DaySpend,
    );
    const view = await service.view(PROJECT, 7, NOW);
    expect(usage.daysSince).toHaveBeenCalledWith(PROJECT, '2026-11-20');
    expect(usage.spentOn).toHaveBeenCalledWith(PROJECT, '2026-11-26');
    expect(view.engine).toEqual({ name: 'openai', model: 'qwen3' });
    expect(view.today).toMatchObject({
      day: '2026-11-26',
      left: { tokens: 0, costUsd: null },
      spent: 'daily-token-budget',
    });
  });

  it('names the local engine, with no model and no budget, when no model is configured', async () => {
    const { service } = setUp({}, { tokens: 0, costUsd: null } as DaySpend);
    const view = await service.view(PROJECT, 1, NOW);
    expect(view.engine).toEqual({ name: 'local', model: null });
    expect(view.today).toMatchObject({ left: { tokens: null, costUsd: null }, spent: null });
  });
});
