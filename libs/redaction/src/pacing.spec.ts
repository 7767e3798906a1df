import { redactEventBatch } from './events';
import { Redactor } from './redactor';

/** A redactor whose pauses are counted and whose clock the test moves. */
function paced() {
  const clock = { ms: 0 };
  const pauses = { count: 0 };
  const redactor = new Redactor(undefined, {
    pause: async () => {
      pauses.count += 1;
    },
    sliceMs: 10,
    now: () => clock.ms,
  });
  /** Moves the clock to `ms` and lets `slice` breathe there: how many pauses there have been in all. */
  const breatheAt = async (slice: ReturnType<Redactor['slice']>, ms: number) => {
    clock.ms = ms;
    await slice.breathe();
    return pauses.count;
  };
  return { redactor, clock, pauses, breatheAt };
}

describe('redaction in slices', () => {
  it('counts only its own run: a batch that starts after other work does not give way at once', async () => {
    const { redactor, clock, breatheAt } = paced();
    // The process did other work (other requests, the database) for 100 ms since the redactor was made.
    clock.ms = 100;
    const slice = redactor.slice();
    expect(await breatheAt(slice, 100)).toBe(0);
    expect(await breatheAt(slice, 109)).toBe(0);
  });

  it('gives way once it has itself run a slice, then starts a new one', async () => {
    const { redactor, breatheAt } = paced();
    const slice = redactor.slice();
    expect(await breatheAt(slice, 10)).toBe(1);
    expect(await breatheAt(slice, 15)).toBe(1);
    expect(await breatheAt(slice, 20)).toBe(2);
  });

  it('gives way between the events of a batch whose redaction runs long', async () => {
    const { redactor, clock, pauses } = paced();
    // Each look at the clock is 4 ms later: a batch of 10 events runs far past one slice.
    const now = { ms: 0 };
    clock.ms = 0;
    Object.defineProperty(clock, 'ms', { get: () => (now.ms += 4) });
    const events = Array.from({ length: 10 }, (_, i) => ({ eventId: `e${i}`, content: 'plain words' }));
    const { value } = await redactEventBatch(redactor, { events });
    expect(value.events).toEqual(events);
    expect(pauses.count).toBeGreaterThan(2);
  });
});
