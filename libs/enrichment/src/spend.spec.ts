import { budgetLeft, budgetSpent, costOf, estimateCall, withInFlight } from './spend';

const usage = { promptTokens: 2_000_000, completionTokens: 500_000, totalTokens: 2_500_000 };

describe('costOf', () => {
  it('takes what the engine reported before any price table', () => {
    expect(costOf({ ...usage, costUsd: 0.42 }, { input: 1, output: 1 })).toBe(0.42);
  });

  it('prices input and output tokens per million', () => {
    expect(costOf(usage, { input: 0.15, output: 0.6 })).toBeCloseTo(0.6, 10);
  });

  it('is unknown without a report or a price', () => {
    expect(costOf(usage, undefined)).toBeUndefined();
  });
});

describe('budgetSpent', () => {
  const budget = { dailyTokens: 1000, dailyCostUsd: 2 };

  it('names the budget the day has reached', () => {
    expect(budgetSpent({ tokens: 999, costUsd: 1.99 }, budget)).toBeNull();
    expect(budgetSpent({ tokens: 1000, costUsd: 0 }, budget)).toBe('daily-token-budget');
    expect(budgetSpent({ tokens: 10, costUsd: 2 }, budget)).toBe('daily-cost-budget');
  });

  it('never stops for a budget of 0 or a cost nobody knows', () => {
    expect(budgetSpent({ tokens: 1e9, costUsd: 1e9 }, { dailyTokens: 0, dailyCostUsd: 0 })).toBeNull();
    expect(budgetSpent({ tokens: 1, costUsd: null }, { dailyTokens: 0, dailyCostUsd: 1 })).toBeNull();
  });

  it('says what is left of each budget that is set', () => {
    expect(budgetLeft({ tokens: 400, costUsd: 0.5 }, budget)).toEqual({ tokens: 600, costUsd: 1.5 });
    expect(budgetLeft({ tokens: 4000, costUsd: null }, { dailyTokens: 1000, dailyCostUsd: 0 })).toEqual({
      tokens: 0,
      costUsd: null,
    });
  });
});

describe('calls in flight', () => {
  it('estimates a call from its events, with room for the prompt and the answer, priced when it can be', () => {
    expect(estimateCall(4000, undefined)).toEqual({ tokens: 1000 + 3000 + 2000, costUsd: null });
    // $10 a million either way: 6,000 tokens.
    expect(estimateCall(4000, { input: 10, output: 10 }).costUsd).toBeCloseTo(0.06, 10);
  });

  it('counts what calls in flight hold as if they had spent it, so the last of a budget goes to one of them', () => {
    const budget = { dailyTokens: 100_000, dailyCostUsd: 0 };
    const spent = { tokens: 98_000, costUsd: null };
    expect(budgetSpent(withInFlight(spent, []), budget)).toBeNull();
    expect(budgetSpent(withInFlight(spent, [{ tokens: 6000, costUsd: null }]), budget)).toBe('daily-token-budget');
  });

  it('prices the day once any call in flight is priced, and keeps it unknown otherwise', () => {
    expect(withInFlight({ tokens: 0, costUsd: null }, [{ tokens: 10, costUsd: 0.5 }])).toEqual({
      tokens: 10,
      costUsd: 0.5,
    });
    expect(withInFlight({ tokens: 5, costUsd: null }, [{ tokens: 10, costUsd: null }])).toEqual({
      tokens: 15,
      costUsd: null,
    });
  });
});
