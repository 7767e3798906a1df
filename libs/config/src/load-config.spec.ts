import { ConfigError, loadConfig, redactUrl } from './load-config';

describe('loadConfig', () => {
  it('runs locally with no environment at all', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/memex');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.PORT).toBe(8080);
    expect(config.MEMEX_ADMIN_TOKEN).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('reads and coerces what is set', () => {
    const config = loadConfig({ PORT: '9090', MEMEX_ADMIN_TOKEN: 'a'.repeat(16), LOG_LEVEL: 'debug' });
    expect(config).toMatchObject({ PORT: 9090, MEMEX_ADMIN_TOKEN: 'a'.repeat(16), LOG_LEVEL: 'debug' });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ MEMEX_ADMIN_TOKEN: '' }).MEMEX_ADMIN_TOKEN).toBeUndefined();
  });

  it('reports every problem together', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'x', DATABASE_URL: 'http://x', MEMEX_ADMIN_TOKEN: 'short', REDIS_URL: 'nope' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'MEMEX_ADMIN_TOKEN', 'REDIS_URL']) expect(problems).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('accepts ports at both ends and rejects past them', () => {
    expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
    expect(loadConfig({ PORT: '65535' }).PORT).toBe(65535);
    expect(() => loadConfig({ PORT: '65536' })).toThrow(ConfigError);
  });
});

describe('redactUrl', () => {
  it('hides a password and keeps the rest', () => {
    expect(redactUrl('postgres://u:secret@db:5432/memex')).toBe('postgres://u:***@db:5432/memex');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
