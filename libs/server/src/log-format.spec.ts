import { prettyLogs } from './log-format';

describe('prettyLogs', () => {
  it('is pretty on a terminal unless JSON is asked for, and JSON elsewhere unless pretty is asked for', () => {
    expect(prettyLogs({ LOG_FORMAT: 'auto' }, true)).toBe(true);
    expect(prettyLogs({ LOG_FORMAT: 'auto' }, false)).toBe(false);
    expect(prettyLogs({ LOG_FORMAT: 'json' }, true)).toBe(false);
    expect(prettyLogs({ LOG_FORMAT: 'pretty' }, false)).toBe(true);
  });
});
