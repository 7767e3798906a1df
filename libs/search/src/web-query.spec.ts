import { anyOfWords, splitWebQuery } from './web-query';

describe('splitWebQuery', () => {
  it.each([
    ['webhook retries', 'webhook retries', ''],
    ['webhook -redis', 'webhook', 'redis'],
    ['"advisory lock" -"connection pool" worker', 'advisory lock worker', '"connection pool"'],
    ['cache or queue', 'cache queue', ''],
    ['cache OR -queue -redis', 'cache', 'queue or redis'],
    ['"or" gate', 'or gate', ''],
    ['-only', '', 'only'],
    ['re-try well-known', 're-try well-known', ''],
    ['"unclosed phrase', 'unclosed phrase', ''],
    ['  ', '', ''],
    ['cache (-redis)', 'cache', 'redis)'],
    ['cache !-redis', 'cache', 'redis'],
  ])('%j → sought %j, excluded %j', (query, sought, excluded) => {
    expect(splitWebQuery(query)).toEqual({ sought, excluded });
  });
});

describe('anyOfWords', () => {
  it('joins words as alternatives', () => {
    expect(anyOfWords(['fix', 'webhook', 'sender'])).toBe('fix or webhook or sender');
    expect(anyOfWords([])).toBe('');
  });
});
