import { splitWebQuery } from './web-query';

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
    expect(splitWebQuery(query)).toMatchObject({ sought, excluded });
  });

  it('keeps quoted phrases apart from the words, for full text to weigh them as phrases', () => {
    expect(splitWebQuery('"advisory lock" worker -redis')).toEqual({
      sought: 'advisory lock worker',
      words: 'worker',
      phrases: ['advisory lock'],
      excluded: 'redis',
    });
  });
});
