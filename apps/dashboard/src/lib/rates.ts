/** Counters of the process at one moment (GET /api/v2/admin/metrics). */
export interface CounterSample {
  sampledAt: string;
  counters: Record<string, number | null>;
}

/**
 * Per-minute rates of each counter between two samples; null where a counter is missing in
 * either, or where it went down (the process restarted between them).
 */
export function ratesPerMinute(previous: CounterSample, next: CounterSample): Record<string, number | null> {
  const minutes = (Date.parse(next.sampledAt) - Date.parse(previous.sampledAt)) / 60_000;
  const rates: Record<string, number | null> = {};
  for (const [name, value] of Object.entries(next.counters)) {
    const before = previous.counters[name];
    rates[name] =
      value === null || before === null || before === undefined || value < before || minutes <= 0
        ? null
        : (value - before) / minutes;
  }
  return rates;
}
