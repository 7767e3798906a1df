import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type IORedis from 'ioredis';
import type { Counter } from 'prom-client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '@memex/config';
import { DomainError } from '@memex/domain';
import { CONFIG } from './config.module';
import { MetricsRegistry } from './metrics';
import { PRODUCER_REDIS } from './queue.module';
import { TtlCache } from './ttl-cache';

/** What a credential was presented for: the metric's label, and whether a block is checked before it is. */
export type CredentialKind = 'project-key' | 'admin-token' | 'queue-board';

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;
const MAX_KNOWN_BLOCKS = 10_000;

function credentialId(credential: string): string {
  return createHash('sha256').update(credential).digest('hex').slice(0, 32);
}

/**
 * Brute force against keys and tokens, limited per client address and per presented
 * credential: failures are counted in Redis (rate-limiter-flexible), so every replica sees
 * the same count, and past AUTH_RATE_LIMIT_FAILURES an address (or past
 * AUTH_RATE_LIMIT_CREDENTIAL_FAILURES a credential) is answered 429 with Retry-After for
 * AUTH_RATE_LIMIT_BLOCK_SECONDS. While Redis is away each process counts in memory.
 *
 * The hot path pays nothing: a credential that checks out costs no Redis call (a project key
 * of 256 random bits is not guessed), and a process remembers the blocks it has seen, so a
 * blocked address's next guesses cost neither Redis nor the database. The admin token and
 * the queue board's password may be weak, so a block is looked up before they are checked.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly logger = new Logger(AuthFailureLimiter.name);
  private readonly byAddress: RateLimiterAbstract;
  private readonly byCredential: RateLimiterAbstract;
  /** Blocks this process has seen, by limiter key: when each ends (epoch ms). */
  private readonly knownBlocks: TtlCache<number>;
  private readonly failures: Counter<'kind' | 'outcome'>;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(PRODUCER_REDIS) redis: IORedis | null,
    metrics: MetricsRegistry,
  ) {
    const limiter = (name: string, points: number) => {
      const options = {
        points,
        duration: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
        blockDuration: config.AUTH_RATE_LIMIT_BLOCK_SECONDS,
        keyPrefix: `${config.QUEUE_PREFIX}:auth-failures:${name}`,
      };
      // Embedded mode is one process: its memory is the shared count.
      if (!redis) return new RateLimiterMemory(options);
      return new RateLimiterRedis({
        ...options,
        storeClient: redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      });
    };
    this.byAddress = limiter('address', config.AUTH_RATE_LIMIT_FAILURES);
    this.byCredential = limiter('credential', config.AUTH_RATE_LIMIT_CREDENTIAL_FAILURES);
    this.knownBlocks = new TtlCache(config.AUTH_RATE_LIMIT_BLOCK_SECONDS * 1000, MAX_KNOWN_BLOCKS);
    this.failures = metrics.counter(
      'memex_auth_failures_total',
      'Failed authentication attempts by credential kind and outcome (unauthorized, rate_limited)',
      ['kind', 'outcome'],
    );
  }

  /**
   * Runs `check` (which throws UNAUTHORIZED for a bad credential) under the limits: a blocked
   * address or credential gets RATE_LIMITED without being checked, a failure is counted, and
   * the failure that crosses a limit is itself answered RATE_LIMITED.
   */
  async attempt<T>(
    kind: CredentialKind,
    address: string,
    credential: string | undefined,
    check: () => T | Promise<T>,
  ): Promise<T> {
    // No credential at all guesses nothing (a browser's first visit to the queue board).
    if (!this.applies(address) || credential === undefined) return check();
    const keys = { address: `addr:${address}`, credential: `cred:${credentialId(credential)}` };
    this.refuseKnownBlock(kind, keys);
    if (kind !== 'project-key') await this.refuseBlock(kind, keys);
    try {
      return await check();
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED') await this.failed(kind, keys);
      throw error;
    }
  }

  private applies(address: string): boolean {
    return (
      this.config.AUTH_RATE_LIMIT_ENABLED && !(this.config.AUTH_RATE_LIMIT_EXEMPT_LOOPBACK && LOOPBACK.test(address))
    );
  }

  private refuseKnownBlock(kind: CredentialKind, keys: { address: string; credential: string }): void {
    const now = Date.now();
    const until = Math.max(this.knownBlocks.get(keys.address) ?? 0, this.knownBlocks.get(keys.credential) ?? 0);
    if (until > now) this.refuse(kind, until - now);
  }

  private async refuseBlock(kind: CredentialKind, keys: { address: string; credential: string }): Promise<void> {
    const [address, credential] = await Promise.all([
      this.state(this.byAddress, keys.address),
      this.state(this.byCredential, keys.credential),
    ]);
    for (const [key, state, limit] of [
      [keys.address, address, this.config.AUTH_RATE_LIMIT_FAILURES],
      [keys.credential, credential, this.config.AUTH_RATE_LIMIT_CREDENTIAL_FAILURES],
    ] as const) {
      if (state && state.consumedPoints > limit) this.block(kind, key, state.msBeforeNext);
    }
  }

  private async failed(kind: CredentialKind, keys: { address: string; credential: string }): Promise<void> {
    const outcomes = await Promise.all([
      this.consume(this.byAddress, keys.address),
      this.consume(this.byCredential, keys.credential),
    ]);
    const blocked = outcomes.filter((o) => o.blocked);
    if (blocked.length === 0) {
      this.failures.inc({ kind, outcome: 'unauthorized' });
      return;
    }
    const longest = blocked.reduce((a, b) => (a.msBeforeNext >= b.msBeforeNext ? a : b));
    this.block(kind, longest.key, longest.msBeforeNext);
  }

  private block(kind: CredentialKind, key: string, msBeforeNext: number): never {
    this.knownBlocks.set(key, Date.now() + msBeforeNext);
    return this.refuse(kind, msBeforeNext);
  }

  private refuse(kind: CredentialKind, msBeforeNext: number): never {
    this.failures.inc({ kind, outcome: 'rate_limited' });
    const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    throw new DomainError(
      'RATE_LIMITED',
      `too many failed authentication attempts; try again in ${retryAfterSeconds} s`,
      {
        retryAfterSeconds,
      },
    );
  }

  private async state(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
    try {
      return await limiter.get(key);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'auth rate limit state unavailable; checking the credential');
      return null;
    }
  }

  private async consume(
    limiter: RateLimiterAbstract,
    key: string,
  ): Promise<{ key: string; blocked: boolean; msBeforeNext: number }> {
    try {
      await limiter.consume(key);
      return { key, blocked: false, msBeforeNext: 0 };
    } catch (result) {
      if (result instanceof RateLimiterRes) return { key, blocked: true, msBeforeNext: result.msBeforeNext };
      // Both Redis and the in-memory insurance failed: the 401 stands, uncounted.
      this.logger.warn({ err: (result as Error).message }, 'auth failure not counted');
      return { key, blocked: false, msBeforeNext: 0 };
    }
  }
}
