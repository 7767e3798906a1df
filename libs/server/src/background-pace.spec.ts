import { backgroundPace, requestActivity } from './background-pace';

describe('backgroundPace', () => {
  afterEach(() => {
    requestActivity.inFlight = 0;
    requestActivity.lastStartedAt = 0;
  });

  it('never waits in a server-mode app of its own, however busy, and counts no request', async () => {
    requestActivity.inFlight = 5;
    requestActivity.lastStartedAt = Date.now();
    let clock = 0;
    const pace = backgroundPace({ MEMEX_MODE: 'server' }, {}, () => (clock += 1000));
    await pace.yield();
    // It did not even look at the clock.
    expect(clock).toBe(0);
    expect(pace.watchesRequests).toBe(false);
  });

  it('waits in the all-in-one process of server mode, whose requests share its thread', async () => {
    requestActivity.inFlight = 1;
    let clock = 0;
    const pace = backgroundPace({ MEMEX_MODE: 'server' }, { sharesThread: true }, () => (clock += 1000));
    await pace.yield();
    expect(clock).toBeGreaterThanOrEqual(2000);
    expect(pace.watchesRequests).toBe(true);
  });

  it('in embedded mode waits until no request is being answered, then goes on', async () => {
    requestActivity.inFlight = 1;
    requestActivity.lastStartedAt = Date.now();
    let done = false;
    const waiting = backgroundPace({ MEMEX_MODE: 'embedded' })
      .yield()
      .then(() => (done = true));
    await new Promise((r) => setTimeout(r, 40));
    expect(done).toBe(false);
    requestActivity.inFlight = 0;
    await waiting;
    expect(done).toBe(true);
  });

  it('gives up waiting after two seconds of a steady flood', async () => {
    requestActivity.inFlight = 3;
    let clock = 0;
    // Each look at the clock is a second later: the wait ends on its limit, not on quiet.
    await backgroundPace({ MEMEX_MODE: 'embedded' }, {}, () => (clock += 1000)).yield();
    expect(clock).toBeGreaterThanOrEqual(2000);
    expect(requestActivity.inFlight).toBe(3);
  });
});
