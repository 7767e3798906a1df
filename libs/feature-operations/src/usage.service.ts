import { Inject, Injectable } from '@nestjs/common';
import { enrichmentEngine, type Config } from '@memex/config';
import { ModelUsageRepository, ProjectStatusRepository } from '@memex/db';
import type { StatusView, UsageView } from '@memex/domain';
import { budgetLeft, budgetSpent } from '@memex/enrichment';
import { CONFIG } from '@memex/server';

const DAY_MS = 86_400_000;
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** What a project spent on models against its budgets, and where its memory stands. */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: ModelUsageRepository,
    private readonly status: ProjectStatusRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  private engine(): UsageView['engine'] {
    const name = enrichmentEngine(this.config);
    const model =
      name === 'openai' ? this.config.LLM_MODEL : name === 'claude-code' ? this.config.CLAUDE_CODE_MODEL : null;
    return { name, model };
  }

  private async today(projectId: string, now: Date): Promise<UsageView['today']> {
    const day = utcDay(now);
    const spent = await this.usage.spentOn(projectId, day);
    const budget = { dailyTokens: this.config.LLM_DAILY_TOKENS, dailyCostUsd: this.config.LLM_DAILY_COST_USD };
    return { day, ...spent, left: budgetLeft(spent, budget), spent: budgetSpent(spent, budget) };
  }

  async view(projectId: string, days: number, now = new Date()): Promise<UsageView> {
    const since = utcDay(new Date(now.getTime() - (days - 1) * DAY_MS));
    return {
      projectId,
      engine: this.engine(),
      budget: { dailyTokens: this.config.LLM_DAILY_TOKENS, dailyCostUsd: this.config.LLM_DAILY_COST_USD },
      today: await this.today(projectId, now),
      days: await this.usage.daysSince(projectId, since),
    };
  }

  async projectStatus(projectId: string, now = new Date()): Promise<StatusView> {
    const state = await this.status.state(projectId);
    return {
      projectId,
      engine: this.engine(),
      sessions: { ...state.sessions, lastEventAt: state.sessions.lastEventAt?.toISOString() ?? null },
      items: state.items,
      lastEnrichmentAt: state.lastEnrichmentAt?.toISOString() ?? null,
      usageToday: await this.today(projectId, now),
    };
  }
}
