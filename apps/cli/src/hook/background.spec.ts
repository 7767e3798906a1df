import { takeBackgroundInput } from './background';

describe('takeBackgroundInput', () => {
  it('takes the payload a SessionStart handed over, and out of the environment, so nothing started after inherits it', () => {
    const env: NodeJS.ProcessEnv = { MEMEX_HOOK_BACKGROUND_INPUT: '{"session_id":"s1"}', PATH: '/bin' };
    expect(takeBackgroundInput(env, 'SessionStart')).toBe('{"session_id":"s1"}');
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('ignores the variable for any other hook, or when empty: a stray, not a hand-over', () => {
    const env: NodeJS.ProcessEnv = { MEMEX_HOOK_BACKGROUND_INPUT: '{"session_id":"s1"}' };
    expect(takeBackgroundInput(env, 'PostToolUse')).toBeUndefined();
    expect(env).toEqual({});
    expect(takeBackgroundInput({ MEMEX_HOOK_BACKGROUND_INPUT: '' }, 'SessionStart')).toBeUndefined();
    expect(takeBackgroundInput({}, 'SessionStart')).toBeUndefined();
  });
});
