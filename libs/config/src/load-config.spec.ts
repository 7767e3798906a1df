import { enrichmentEngine } from './config.schema';
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

  it('runs embedded, in MEMEX_HOME, when no server is named; server mode when one is', () => {
    const embedded = loadConfig({ HOME: '/ignored', MEMEX_HOME: '/data/memex' });
    expect(embedded).toMatchObject({ MEMEX_MODE: 'embedded', MEMEX_LOCAL_STATE_DIR: '/data/memex' });
    expect(loadConfig({}).MEMEX_HOME).toMatch(/\.memex$/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/memex' }).MEMEX_MODE).toBe('server');
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379/2' })).toMatchObject({
      MEMEX_MODE: 'server',
      MEMEX_LOCAL_STATE_DIR: '.memex',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/memex', MEMEX_MODE: 'embedded' }).MEMEX_MODE).toBe('embedded');
    expect(loadConfig({ MEMEX_MODE: 'server' }).MEMEX_MODE).toBe('server');
    expect(loadConfig({ MEMEX_HOME: '/h', MEMEX_LOCAL_STATE_DIR: '/keys' }).MEMEX_LOCAL_STATE_DIR).toBe('/keys');
    expect(() => loadConfig({ MEMEX_MODE: 'cloud' })).toThrow(ConfigError);
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

  it('chooses the enrichment engine: as set, else openai when a model is configured, else local', () => {
    expect(enrichmentEngine(loadConfig({}))).toBe('local');
    expect(enrichmentEngine(loadConfig({ OPENAI_API_KEY: 'sk-test' }))).toBe('openai');
    expect(enrichmentEngine(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }))).toBe('openai');
    expect(enrichmentEngine(loadConfig({ ENRICHMENT_ENGINE: 'claude-code' }))).toBe('claude-code');
    expect(enrichmentEngine(loadConfig({ ENRICHMENT_ENGINE: 'local', OPENAI_API_KEY: 'sk-test' }))).toBe('local');
  });

  it('refuses an engine it cannot run, or a price table that is not one', () => {
    expect(() => loadConfig({ ENRICHMENT_ENGINE: 'openai' })).toThrow(/ENRICHMENT_ENGINE: openai needs LLM_BASE_URL/);
    expect(() => loadConfig({ ENRICHMENT_ENGINE: 'gpt' })).toThrow(ConfigError);
    expect(() => loadConfig({ LLM_PRICES: 'cheap' })).toThrow(/LLM_PRICES: must be JSON/);
    expect(() => loadConfig({ LLM_PRICES: '{"gpt-4o-mini": {"input": "0.15"}}' })).toThrow(/LLM_PRICES: must map/);
    expect(() => loadConfig({ LLM_DAILY_COST_USD: '-1' })).toThrow(ConfigError);
    expect(loadConfig({ LLM_PRICES: '{"gpt-4o-mini": {"input": 0.15, "output": 0.6}}' }).LLM_PRICES).toEqual({
      'gpt-4o-mini': { input: 0.15, output: 0.6 },
    });
  });

  it('accepts ports at both ends and rejects past them', () => {
    expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
    expect(loadConfig({ PORT: '65535' }).PORT).toBe(65535);
    expect(() => loadConfig({ PORT: '65536' })).toThrow(ConfigError);
  });
});

describe('search configuration', () => {
  it('defaults to the local embedder and the postgres vector store', () => {
    expect(loadConfig({})).toMatchObject({
      EMBEDDING_PROVIDER: 'local',
      VECTOR_STORE: 'postgres',
      EMBEDDING_DIMENSIONS: 256,
    });
  });

  it('needs a Qdrant URL for the qdrant store, and an endpoint or key for openai embeddings', () => {
    expect(() => loadConfig({ VECTOR_STORE: 'qdrant' })).toThrow(/QDRANT_URL: is required when VECTOR_STORE=qdrant/);
    expect(() => loadConfig({ VECTOR_STORE: 'qdrant', QDRANT_URL: 'http://q:6333' })).not.toThrow();
    expect(() => loadConfig({ EMBEDDING_PROVIDER: 'openai' })).toThrow(/EMBEDDING_PROVIDER: openai needs/);
    expect(() => loadConfig({ EMBEDDING_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-x' })).not.toThrow();
    expect(() => loadConfig({ EMBEDDING_PROVIDER: 'openai', LLM_BASE_URL: 'http://ollama:11434/v1' })).not.toThrow();
  });
});

describe('redactUrl', () => {
  it('hides a password and keeps the rest', () => {
    expect(redactUrl('postgres://u:secret@db:5432/memex')).toBe('postgres://u:***@db:5432/memex');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});

describe('redaction settings', () => {
  it('default to the built-in rules alone', () => {
    expect(loadConfig({})).toMatchObject({ REDACT_EXTRA_PATTERNS: [], REDACT_ALLOW: [] });
  });

  it('compile extra patterns and allow-list entries at boot', () => {
    const config = loadConfig({
      REDACT_EXTRA_PATTERNS: '[{"name":"acme-token","pattern":"acme_[a-z0-9]{32}"}]',
      REDACT_ALLOW: '["sk_test_[A-Za-z0-9]+"]',
    });
    expect(config.REDACT_EXTRA_PATTERNS).toEqual([{ name: 'acme-token', pattern: /acme_[a-z0-9]{32}/dg }]);
    expect(config.REDACT_ALLOW[0]!.test('sk_test_abc')).toBe(true);
  });

  it('refuse what does not parse, naming the variable and the entry', () => {
    expect(() => loadConfig({ REDACT_EXTRA_PATTERNS: '[{"name":"x","pattern":"("}]' })).toThrow(
      /REDACT_EXTRA_PATTERNS: \[0\]: not a valid regular expression/,
    );
    expect(() => loadConfig({ REDACT_ALLOW: 'sk_test_' })).toThrow(/REDACT_ALLOW: must be a JSON array of patterns/);
  });
});

describe('authentication rate limits', () => {
  it('are on by default: 10 failures a minute per credential, 50 per address, then 5 minutes blocked', () => {
    expect(loadConfig({})).toMatchObject({
      AUTH_RATE_LIMIT_ENABLED: true,
      AUTH_RATE_LIMIT_FAILURES: 50,
      AUTH_RATE_LIMIT_CREDENTIAL_FAILURES: 10,
      AUTH_RATE_LIMIT_WINDOW_SECONDS: 60,
      AUTH_RATE_LIMIT_BLOCK_SECONDS: 300,
      AUTH_RATE_LIMIT_EXEMPT_LOOPBACK: false,
      TRUST_PROXY: false,
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8,172.16.0.0/12', '10.0.0.0/8,172.16.0.0/12'],
    ['loopback, uniquelocal', 'loopback, uniquelocal'],
  ])('reads TRUST_PROXY=%s', (raw, parsed) => {
    expect(loadConfig({ TRUST_PROXY: raw }).TRUST_PROXY).toEqual(parsed);
  });

  it('refuses what Fastify could not read', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'x-forwarded-for;rm' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ AUTH_RATE_LIMIT_FAILURES: '0' })).toThrow(/AUTH_RATE_LIMIT_FAILURES/);
  });

  it('takes a METRICS_TOKEN as long as the admin token must be, and none by default', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-token-0123456789' }).METRICS_TOKEN).toBe('scrape-token-0123456789');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
