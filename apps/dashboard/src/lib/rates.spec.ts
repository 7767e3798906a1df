import { ratesPerMinute } from './rates';

describe('ratesPerMinute', () => {
  it('divides the growth of each counter by the minutes between the samples', () => {
    const rates = ratesPerMinute(
      { sampledAt: '2026-11-21T09:00:00Z', counters: { events: 100, items: 5 } },
      { sampledAt: '2026-11-21T09:00:30Z', counters: { events: 400, items: 5 } },
    );
    expect(rates).toEqual({ events: 600, items: 0 });
  });

  it('gives no rate for a counter the process lacks, or one that went down (a restart)', () => {
    const rates = ratesPerMinute(
      { sampledAt: '2026-11-21T09:00:00Z', counters: { events: 100, items: null } },
      { sampledAt: '2026-11-21T09:01:00Z', counters: { events: 10, items: null } },
    );
    expect(rates).toEqual({ events: null, items: null });
  });
});
