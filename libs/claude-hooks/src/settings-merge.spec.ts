import { HOOK_EVENTS } from './hook-payload';
import {
  SettingsShapeError,
  isMemexHook,
  mergeClaudeSettings,
  mergeMcpConfig,
  shellWord,
  withMemexEnv,
  withoutMemexHooks,
} from './settings-merge';

const BIN = '/opt/memex/bin/memex';

type Settings = {
  hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;
  enabledMcpjsonServers: string[];
  [key: string]: unknown;
};

describe('mergeClaudeSettings', () => {
  it('installs one handler per event into empty settings, with a timeout that lifts SessionEnd past 1.5 s', () => {
    const { value, changed } = mergeClaudeSettings(undefined, BIN);
    const settings = value as Settings;
    expect(changed).toBe(true);
    expect(Object.keys(settings.hooks).sort()).toEqual([...HOOK_EVENTS].sort());
    for (const event of HOOK_EVENTS) {
      expect(settings.hooks[event]).toEqual([
        {
          ...(event === 'PostToolUse' ? { matcher: '*' } : {}),
          hooks: [{ type: 'command', command: `${BIN} hook ${event}`, timeout: 5 }],
        },
      ]);
    }
    expect(settings.enabledMcpjsonServers).toEqual(['memex']);
  });

  it('keeps every other key, hook and server, and changes nothing on a second run', () => {
    const existing = {
      model: 'opus',
      env: { FOO: '1' },
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
      },
      enabledMcpjsonServers: ['github'],
    };
    const once = mergeClaudeSettings(existing, BIN).value as Settings;
    expect(once.model).toBe('opus');
    expect(once.env).toEqual({ FOO: '1' });
    expect(once.hooks.PreToolUse).toEqual(existing.hooks.PreToolUse);
    expect(once.hooks.Stop![0]).toEqual(existing.hooks.Stop[0]);
    expect(once.hooks.Stop).toHaveLength(2);
    expect(once.enabledMcpjsonServers).toEqual(['github', 'memex']);
    expect(existing.hooks.Stop).toHaveLength(1);

    const twice = mergeClaudeSettings(once, BIN);
    expect(twice.changed).toBe(false);
    expect(twice.value).toEqual(once);
  });

  it('moves its own handlers to a new checkout path in place, keeping fields a user added', () => {
    const old = mergeClaudeSettings(undefined, '/old/place/bin/memex').value as Settings;
    old.hooks.Stop![0]!.hooks[0]!.statusMessage = 'saving memory';
    const moved = mergeClaudeSettings(old, BIN).value as Settings;
    expect(moved.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: `${BIN} hook Stop`, timeout: 5, statusMessage: 'saving memory' }] },
    ]);
  });

  it('leaves a command that does more than the hook, and keeps a timeout the user set', () => {
    const custom = { type: 'command', command: '/opt/memex/bin/memex hook Stop && notify-send done', timeout: 30 };
    const own = { type: 'command', command: '/old/bin/memex hook SessionEnd', timeout: 30 };
    const merged = mergeClaudeSettings({ hooks: { Stop: [{ hooks: [custom] }], SessionEnd: [{ hooks: [own] }] } }, BIN)
      .value as Settings;
    expect(merged.hooks.Stop![0]!.hooks).toEqual([custom]);
    expect(merged.hooks.Stop).toHaveLength(2);
    expect(merged.hooks.SessionEnd).toEqual([
      { hooks: [{ type: 'command', command: `${BIN} hook SessionEnd`, timeout: 30 }] },
    ]);
  });

  it('refuses shapes Claude Code would not accept instead of overwriting them', () => {
    expect(() => mergeClaudeSettings([], BIN)).toThrow(SettingsShapeError);
    expect(() => mergeClaudeSettings({ hooks: [] }, BIN)).toThrow('"hooks" is not an object');
    expect(() => mergeClaudeSettings({ hooks: { Stop: {} } }, BIN)).toThrow('"hooks.Stop" is not an array');
    expect(() => mergeClaudeSettings({ enabledMcpjsonServers: 'memex' }, BIN)).toThrow(SettingsShapeError);
  });
});

describe('mergeMcpConfig', () => {
  it('adds the stdio server beside others, naming nothing of this machine, and keeps fields added to its entry', () => {
    const existing = {
      mcpServers: { github: { command: 'gh' }, memex: { command: BIN, cwd: '.', env: { LOG_LEVEL: 'warn' } } },
    };
    const { value } = mergeMcpConfig(existing);
    expect(value).toEqual({
      mcpServers: {
        github: { command: 'gh' },
        memex: {
          type: 'stdio',
          command: '${MEMEX_BIN:-memex}',
          args: ['mcp'],
          cwd: '.',
          env: { LOG_LEVEL: 'warn', MEMEX_URL: '${MEMEX_URL:-}', MEMEX_API_KEY: '${MEMEX_API_KEY:-}' },
        },
      },
    });
    expect(JSON.stringify(mergeMcpConfig(undefined).value)).not.toContain('/');
    expect(mergeMcpConfig(value).changed).toBe(false);
    expect(() => mergeMcpConfig({ mcpServers: [] })).toThrow(SettingsShapeError);
  });

  it('leaves an entry that uses the HTTP endpoint alone', () => {
    const http = { mcpServers: { memex: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { a: 'b' } } } };
    expect(mergeMcpConfig(http)).toEqual({ value: http, changed: false });
  });
});

describe('withMemexEnv and withoutMemexHooks', () => {
  it('sets Memex variables beside the others, leaving out what is not known', () => {
    expect(
      withMemexEnv(
        { model: 'opus', env: { FOO: '1', MEMEX_API_KEY: 'old' } },
        { MEMEX_BIN: BIN, MEMEX_API_KEY: 'mx_new' },
      ),
    ).toEqual({
      model: 'opus',
      env: { FOO: '1', MEMEX_API_KEY: 'mx_new', MEMEX_BIN: BIN },
    });
    expect(() => withMemexEnv({ env: [] }, { MEMEX_BIN: BIN })).toThrow(SettingsShapeError);
  });

  it('takes an older init’s hooks out of committed settings, keeping everything else', () => {
    const installed = mergeClaudeSettings(
      { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } },
      BIN,
    ).value;
    const { value, changed } = withoutMemexHooks(installed);
    expect(changed).toBe(true);
    expect(value).toEqual({
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
      enabledMcpjsonServers: ['memex'],
    });
    expect(withoutMemexHooks(value).changed).toBe(false);
    expect(withoutMemexHooks(mergeClaudeSettings(undefined, BIN).value).value).toEqual({
      enabledMcpjsonServers: ['memex'],
    });
  });
});

describe('isMemexHook and shellWord', () => {
  it('recognises its handlers whatever the path, and only for their event', () => {
    expect(isMemexHook({ type: 'command', command: "'/my dir/bin/memex' hook Stop" }, 'Stop')).toBe(true);
    expect(isMemexHook({ type: 'command', command: 'memex hook Stop' }, 'Stop')).toBe(true);
    expect(isMemexHook({ type: 'command', command: 'memex hook StopFailure' }, 'Stop')).toBe(false);
    expect(isMemexHook({ type: 'command', command: 'memex hook Stop' }, 'SessionEnd')).toBe(false);
    expect(isMemexHook({ type: 'http', url: 'memex hook Stop' }, 'Stop')).toBe(false);
    expect(
      isMemexHook({ type: 'command', command: '/opt/memex/bin/memex hook Stop && notify-send done' }, 'Stop'),
    ).toBe(false);
  });

  it('quotes paths a shell would split', () => {
    expect(shellWord('/opt/memex/bin/memex')).toBe('/opt/memex/bin/memex');
    expect(shellWord("/Users/o'neil/my memex/bin/memex")).toBe("'/Users/o'\\''neil/my memex/bin/memex'");
  });
});
