import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { parseAllowList, parseExtraPatterns } from '@memex/redaction';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const pricesSchema = z.record(
  z.string().min(1),
  z.strictObject({ input: z.number().min(0), output: z.number().min(0) }),
);
/** `true` or `false` exactly: "0", "yes" or a typo is an error, not a silent false. */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');

/**
 * Fastify's trustProxy: `false` (the default: the peer is the client), `true` (the left-most
 * X-Forwarded-For address), a number of proxy hops, or the proxies' addresses and CIDRs
 * (`10.0.0.0/8,172.16.0.0/12`, or proxy-addr's names: loopback, linklocal, uniquelocal).
 */
const trustProxy = z
  .string()
  .regex(/^(?:true|false|\d{1,2}|[0-9A-Za-z:./, ]+)$/, 'must be true, false, a number of hops or addresses and CIDRs')
  .default('false')
  .transform((v): boolean | number | string =>
    v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
  );

/** A JSON setting, parsed (and its patterns compiled) at boot: a problem is a configuration error naming the variable. */
const jsonSetting = <T>(parse: (json: string) => T, fallback: T) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      try {
        return parse(raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

/**
 * Every variable the services read, with defaults that run against a local PostgreSQL and
 * Redis. Parsed once at boot; nothing else reads process.env.
 */
export const configSchema = z
  .object({
    /**
     * `embedded` (PostgreSQL in process with PGlite, data under MEMEX_HOME; the queue in
     * process) or `server` (PostgreSQL, Redis and BullMQ). Unset, it is `server` when
     * DATABASE_URL or REDIS_URL is set and `embedded` otherwise (see `loadConfig`).
     */
    MEMEX_MODE: z.enum(['embedded', 'server']).default('embedded'),
    /** Where embedded mode keeps its database (`MEMEX_HOME/pgdata`) and its lock. */
    MEMEX_HOME: z.string().min(1).default(join(homedir(), '.memex')),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
      .default('postgres://postgres@127.0.0.1:5432/memex'),
    DB_POOL_SIZE: int(1, 200).default(10),
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
    /** Namespaces every BullMQ key, so several deployments (or test files) can share one Redis. */
    QUEUE_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -')
      .default('memex'),
    /** Local by default; containers set 0.0.0.0. */
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: int(0, 65535).default(8080),
    /** Operator endpoints answer 403 while this is unset. */
    MEMEX_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * What a Prometheus scrape of /metrics presents (`Authorization: Bearer …`), so the scraper
     * need not hold the admin token; the admin token opens /metrics too. Neither set: /metrics is 403.
     */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Which proxies' X-Forwarded-For to believe for the client's address (rate limits key on it). */
    TRUST_PROXY: trustProxy,
    /** Authentication failures are limited per presented credential and per client address (shared through Redis). */
    AUTH_RATE_LIMIT_ENABLED: flag(true),
    /**
     * Failures an address may make per window, with credentials not yet blocked on their own
     * (many different wrong ones: guessing), before its unknown credentials are refused.
     */
    AUTH_RATE_LIMIT_FAILURES: int(1, 1_000_000).default(50),
    /** Failed attempts with one key or token (any address) per window before it is blocked. */
    AUTH_RATE_LIMIT_CREDENTIAL_FAILURES: int(1, 1_000_000).default(10),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: int(1, 86_400).default(60),
    /** How long a blocked address or key gets 429 for its failed attempts. */
    AUTH_RATE_LIMIT_BLOCK_SECONDS: int(1, 86_400).default(300),
    /** Loopback clients (127.0.0.0/8, ::1) are not limited: tests and single-user setups behind no proxy. */
    AUTH_RATE_LIMIT_EXEMPT_LOOPBACK: flag(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `json` (one object a line, for collectors), `pretty` (for a person), or `auto`: pretty on a terminal. */
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
    /** Batches for one session within this window collapse into one enrichment job. */
    ENRICHMENT_DEBOUNCE_MS: int(0, 600_000).default(2000),
    /** How often the reconciler looks for sessions whose enrichment lags their events. */
    RECONCILE_INTERVAL_MS: int(1000, 3_600_000).default(30_000),
    /** A lagging session is left alone this long after its newest event, so the normal enqueue can act first. */
    RECONCILE_GRACE_MS: int(0, 3_600_000).default(10_000),
    /** Enrichment jobs one worker process runs at once. */
    ENRICHMENT_CONCURRENCY: int(1, 64).default(2),
    /** A window sent to an engine: at most this many events … */
    ENRICHMENT_WINDOW_EVENTS: int(1, 2000).default(200),
    /** … and about this many tokens (4 characters a token). */
    ENRICHMENT_WINDOW_TOKENS: int(500, 1_000_000).default(24_000),
    /**
     * The most extracted items one session keeps: new ones compete with those it holds, and
     * the least salient are not written or are archived. 0: no limit.
     */
    ENRICHMENT_SESSION_ITEMS: int(0, 10_000).default(15),
    /** Existing dedup hints related to a batch that the LLM prompt carries. */
    ENRICHMENT_MAX_HINTS: int(0, 500).default(40),
    /** A job whose worker stops renewing its lock (a crash) is handed to another worker after this. */
    WORKER_STALLED_INTERVAL_MS: int(1000, 600_000).default(30_000),
    /**
     * Which engine enriches sessions: `local` (no model), `openai` (any OpenAI-compatible
     * endpoint) or `claude-code` (the `claude` command, with the user's own sign-in). Unset: the
     * `openai` engine when LLM_BASE_URL or OPENAI_API_KEY is set, otherwise `local`.
     */
    ENRICHMENT_ENGINE: z.enum(['local', 'openai', 'claude-code']).optional(),
    /** The openai engine's endpoint; OpenAI itself when only OPENAI_API_KEY is set. */
    LLM_BASE_URL: z.url().optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
    LLM_TIMEOUT_MS: int(1000, 600_000).default(60_000),
    /** Retries of a failed model request (429, 5xx, timeouts), with the client's backoff. */
    LLM_MAX_RETRIES: int(0, 10).default(2),
    /** Tokens a project may spend on a model per UTC day; past it, sessions use the local engine. 0: no limit. */
    LLM_DAILY_TOKENS: int(0, 1_000_000_000).default(2_000_000),
    /** US dollars a project may spend on a model per UTC day (what Claude Code reports, or LLM_PRICES says). 0: no limit. */
    LLM_DAILY_COST_USD: z.coerce.number().min(0).max(1_000_000).default(0),
    /**
     * What models cost, as JSON: `{"gpt-4o-mini": {"input": 0.15, "output": 0.6}}`, US dollars per
     * million input and output tokens. Engines that report their cost (Claude Code) need none.
     */
    LLM_PRICES: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined) return {};
        try {
          const parsed = pricesSchema.safeParse(JSON.parse(text));
          if (parsed.success) return parsed.data;
          ctx.addIssue({ code: 'custom', message: `must map model names to {"input": n, "output": n}` });
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        }
        return z.NEVER;
      }),
    /** The `claude` command the claude-code engine runs (a name on PATH, or a path). */
    CLAUDE_CODE_COMMAND: z.string().min(1).default('claude'),
    /** The model Claude Code is asked for: a small one by default, as extraction needs no more. */
    CLAUDE_CODE_MODEL: z.string().min(1).default('haiku'),
    /** A `claude` run that has not answered by then is stopped, and its window goes to the local engine. */
    CLAUDE_CODE_TIMEOUT_MS: int(1000, 1_800_000).default(180_000),
    /** How often every project gets a hygiene pass (BullMQ job scheduler). 0: only passes operators start. */
    HYGIENE_INTERVAL_MS: int(0, 30 * 24 * 3_600_000).default(3_600_000),
    /** How often a hygiene worker checks that Redis still holds the schedule, to make it again if not. */
    HYGIENE_SCHEDULE_CHECK_MS: int(100, 3_600_000).default(60_000),
    /** What scheduled passes do: `apply` makes the lifecycle moves, `dry-run` only reports them. */
    HYGIENE_SCHEDULED_MODE: z.enum(['apply', 'dry-run']).default('apply'),
    /** Hygiene passes one worker process runs at once (never two of one project). */
    HYGIENE_CONCURRENCY: int(1, 16).default(1),
    /** `local`: a deterministic lexical embedder, no model; `openai`: any OpenAI-compatible /embeddings. */
    EMBEDDING_PROVIDER: z.enum(['local', 'openai']).default('local'),
    /** The embedding model asked of an OpenAI-compatible endpoint. */
    EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
    /** Vector size: of the local embedder, or asked of the model (text-embedding-3 accepts any up to its own). */
    EMBEDDING_DIMENSIONS: int(8, 4096).default(256),
    /** Where embeddings are asked for; defaults to LLM_BASE_URL (or OpenAI). */
    EMBEDDING_BASE_URL: z.url().optional(),
    /**
     * Send `dimensions` with each request (text-embedding-3 shortens its vectors to it). Off
     * for models that refuse the parameter: their own size must then equal EMBEDDING_DIMENSIONS.
     */
    EMBEDDING_SEND_DIMENSIONS: flag(true),
    /**
     * How long a search waits for its query's embedding, with no retry: past it, search
     * answers from full text alone (a hook has 2 s in all). Item embedding keeps LLM_TIMEOUT_MS.
     */
    EMBEDDING_QUERY_TIMEOUT_MS: int(100, 60_000).default(1500),
    /** `postgres`: vectors in PostgreSQL, exact cosine; `qdrant`: a Qdrant server at QDRANT_URL. */
    VECTOR_STORE: z.enum(['postgres', 'qdrant']).default('postgres'),
    QDRANT_URL: z.url().optional(),
    QDRANT_API_KEY: z.string().min(1).optional(),
    QDRANT_COLLECTION: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -')
      .default('memex_items'),
    /** How often the embedding worker looks for projects whose items changed since it last caught up. */
    EMBEDDING_POLL_MS: int(200, 600_000).default(2000),
    /** A request whose body has not fully arrived after this long is answered 408 and closed. */
    HTTP_REQUEST_TIMEOUT_MS: int(1000, 600_000).default(30_000),
    /**
     * After SIGTERM, a process that has not finished draining within this long exits anyway.
     * Give workers a grace period (Kubernetes terminationGracePeriodSeconds) above it.
     */
    SHUTDOWN_TIMEOUT_MS: int(1000, 3_600_000).default(25_000),
    /**
     * Apply pending migrations at start (the default, for one-process and small setups). Off
     * where a migration job runs first (compose, Kubernetes): the app then refuses to start on
     * a schema that lacks a migration it needs.
     */
    MIGRATE_ON_START: flag(true),
    /** Where `npm start` keeps the local project's key between runs. */
    MEMEX_LOCAL_STATE_DIR: z.string().min(1).default('.memex'),
    /** Secret formats of your own, redacted beside the built-in rules: `[{"name": "acme-token", "pattern": "acme_[a-z0-9]{32}"}]`. */
    REDACT_EXTRA_PATTERNS: jsonSetting(parseExtraPatterns, []),
    /** What redaction leaves alone: patterns a finding must match whole, `["sk_test_[A-Za-z0-9]+"]`. */
    REDACT_ALLOW: jsonSetting(parseAllowList, []),
  })
  .superRefine((c, ctx) => {
    if (c.ENRICHMENT_ENGINE === 'openai' && !c.LLM_BASE_URL && !c.OPENAI_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENRICHMENT_ENGINE'],
        message: 'openai needs LLM_BASE_URL (any OpenAI-compatible endpoint) or OPENAI_API_KEY',
      });
    }
    if (c.VECTOR_STORE === 'qdrant' && !c.QDRANT_URL) {
      ctx.addIssue({ code: 'custom', path: ['QDRANT_URL'], message: 'is required when VECTOR_STORE=qdrant' });
    }
    if (c.EMBEDDING_PROVIDER === 'openai' && !c.OPENAI_API_KEY && !c.EMBEDDING_BASE_URL && !c.LLM_BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['EMBEDDING_PROVIDER'],
        message: 'openai needs OPENAI_API_KEY, EMBEDDING_BASE_URL or LLM_BASE_URL',
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

/** The engine that enriches sessions, as ENRICHMENT_ENGINE or, unset, the model settings say. */
export function enrichmentEngine(config: Config): 'local' | 'openai' | 'claude-code' {
  if (config.ENRICHMENT_ENGINE) return config.ENRICHMENT_ENGINE;
  return config.LLM_BASE_URL !== undefined || config.OPENAI_API_KEY !== undefined ? 'openai' : 'local';
}
