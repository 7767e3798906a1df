import { isConnectionLoss, retryOnConnectionLoss } from './connection-loss';

const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('isConnectionLoss', () => {
  it.each([
    ['a terminated backend', terminated],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['a connection that ended under a query', new Error('Connection terminated unexpectedly')],
    [
      'a client used after its connection broke',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    [
      'a server at its connection limit',
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
    ],
    [
      'a write refused by a read-only server (a standby, after a failover)',
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
    ],
    [
      'a database closed to new connections',
      Object.assign(new Error('database "memex" is not currently accepting connections'), { code: '55000' }),
    ],
  ])('is true for %s', (_, error) => {
    expect(isConnectionLoss(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    ['another 55000', Object.assign(new Error('cannot refresh materialized view concurrently'), { code: '55000' })],
    ['a plain error', new Error('boom')],
    ['nothing', undefined],
    ['a string', 'Connection terminated'],
  ])('is false for %s', (_, error) => {
    expect(isConnectionLoss(error)).toBe(false);
  });
});

describe('retryOnConnectionLoss', () => {
  it('runs the work once more after a lost connection', async () => {
    const work = jest.fn().mockRejectedValueOnce(terminated).mockResolvedValueOnce('rows');
    await expect(retryOnConnectionLoss(work)).resolves.toBe('rows');
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('gives up after the second loss', async () => {
    const work = jest.fn().mockRejectedValue(terminated);
    await expect(retryOnConnectionLoss(work)).rejects.toBe(terminated);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('never repeats work that failed on its own account', async () => {
    const failure = Object.assign(new Error('duplicate key'), { code: '23505' });
    const work = jest.fn().mockRejectedValue(failure);
    await expect(retryOnConnectionLoss(work)).rejects.toBe(failure);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
