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
    ["git's gc won't run", "git's gc won't run", ''],
    ["it's 'broken' -'bad thing'", "it's broken", '"bad thing"'],
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

  it('reads an error quoted in single or curly quotes as a phrase, and an apostrophe as part of a word', () => {
    expect(splitWebQuery("git status fails with 'fatal: unable to read' some hash, how did we fix it?")).toEqual({
      sought: 'git status fails with fatal: unable to read some hash, how did we fix it?',
      words: 'git status fails with some hash, how did we fix it?',
      phrases: ['fatal: unable to read'],
      excluded: '',
    });
    expect(splitWebQuery('the build says \u2018module not found\u2019 and \u201cexit 1\u201d')).toMatchObject({
      words: 'the build says and',
      phrases: ['module not found', 'exit 1'],
    });
    expect(splitWebQuery("don't use the user's 'npm ci' here")).toMatchObject({
      words: "don't use the user's here",
      phrases: ['npm ci'],
    });
  });
});
