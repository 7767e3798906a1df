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
import {
  OPERATOR_SECRETS,
  addressPaysFor,
  refusalAfterFailure,
  refusalBeforeCheck,
  type BeforeCheck,
  type CredentialKind,
} from './auth-limit-rules';
import { TtlCache } from './ttl-cache';

export type { CredentialKind } from './auth-limit-rules';

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;
const MAX_KNOWN = 10_000;
/** How long a credential that checked out from an address stays vouched for there. */
const VOUCH_SECONDS = 86_400;
/** How long a process takes its own word for a vouch before writing it to the store again. */
const VOUCH_REFRESH_MS = 600_000;

function credentialId(credential: string): string {
  return createHash('sha256').update(credential).digest('hex').slice(0, 32);
}

interface Keys {
  address: string;
  credential: string;
  /** This credential from this address. */
  vouch: string;
}

function keysOf(address: string, credential: string): Keys {
  const id = credentialId(credential);
  return { address: `addr:${address}`, credential: `cred:${id}`, vouch: `${address}|${id}` };
}

/**
 * Brute force against keys and tokens, limited per presented credential first and per client
 * address second (the rules: `auth-limit-rules.ts`). Failures are counted in Redis
 * (rate-limiter-flexible), so every replica sees the same count: past
 * AUTH_RATE_LIMIT_CREDENTIAL_FAILURES one wrong credential (identified by a hash of it, never
 * the value) is answered 429 with Retry-After for AUTH_RATE_LIMIT_BLOCK_SECONDS; past
 * AUTH_RATE_LIMIT_FAILURES failures of credentials not yet blocked on their own, so many
 * different wrong ones, an address is. A valid project key always passes; an operator's secret
 * from a blocked address passes if it checked out from that address before. While Redis is
 * away each process counts in memory.
 *
 * The hot path pays nothing: a project key that checks out costs no Redis call (256 random
 * bits are not guessed), and a process remembers the blocks it has seen, so a blocked
 * credential's next attempts cost neither Redis nor the database. The operator secrets may be
 * weak, so their blocks are looked up before they are checked.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly logger = new Logger(AuthFailureLimiter.name);
  private readonly byAddress: RateLimiterAbstract;
  private readonly byCredential: RateLimiterAbstract;
  /** Operator secrets that checked out, by address: one point each, kept VOUCH_SECONDS. */
  private readonly vouches: RateLimiterAbstract;
  /** Blocks this process has seen, by limiter key: when each ends (epoch ms). */
  private readonly knownBlocks: TtlCache<number>;
  /** Vouches this process has seen or written lately. */
  private readonly knownVouches = new TtlCache<true>(VOUCH_REFRESH_MS, MAX_KNOWN);
  private readonly failures: Counter<'kind' | 'outcome'>;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(PRODUCER_REDIS) redis: IORedis | null,
    metrics: MetricsRegistry,
  ) {
    const limiter = (name: string, points: number, duration: number, blockDuration: number) => {
      const options = { points, duration, blockDuration, keyPrefix: `${config.QUEUE_PREFIX}:auth-failures:${name}` };
      // Embedded mode is one process: its memory is the shared count.
      if (!redis) return new RateLimiterMemory(options);
      return new RateLimiterRedis({
        ...options,
        storeClient: redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      });
    };
    const window = config.AUTH_RATE_LIMIT_WINDOW_SECONDS;
    const block = config.AUTH_RATE_LIMIT_BLOCK_SECONDS;
    this.byAddress = limiter('address', config.AUTH_RATE_LIMIT_FAILURES, window, block);
    this.byCredential = limiter('credential', config.AUTH_RATE_LIMIT_CREDENTIAL_FAILURES, window, block);
    this.vouches = limiter('vouched', 1, VOUCH_SECONDS, 0);
    this.knownBlocks = new TtlCache(block * 1000, MAX_KNOWN);
    this.failures = metrics.counter(
      'memex_auth_failures_total',
      'Failed authentication attempts by credential kind and outcome (unauthorized, rate_limited)',
      ['kind', 'outcome'],
    );
  }

  /**
   * Runs `check` (which throws UNAUTHORIZED for a bad credential) under the limits: what the
   * rules refuse gets RATE_LIMITED without being checked, a failure is counted, and the
   * failure that crosses a limit is itself answered RATE_LIMITED.
   */
  async attempt<T>(
    kind: CredentialKind,
    address: string,
    credential: string | undefined,
    check: () => T | Promise<T>,
  ): Promise<T> {
    // No credential at all guesses nothing (a browser's first visit to the queue board).
    if (!this.applies(address) || credential === undefined) return check();
    // The hot path: a project key is checked whatever its address did, so while this process
    // knows of no block there is nothing to weigh before the check, nor a hash to take.
    const quiet = kind === 'project-key' && this.knownBlocks.size === 0;
    const keys = quiet ? undefined : keysOf(address, credential);
    if (keys) {
      const refuseMs = refusalBeforeCheck(await this.stateBefore(kind, keys));
      if (refuseMs > 0) this.refuse(kind, refuseMs);
    }
    let result: T;
    try {
      result = await check();
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED') {
        await this.failed(kind, keys ?? keysOf(address, credential));
      }
      throw error;
    }
    if (OPERATOR_SECRETS.has(kind)) await this.vouch((keys ?? keysOf(address, credential)).vouch);
    return result;
  }

  private applies(address: string): boolean {
    return (
      this.config.AUTH_RATE_LIMIT_ENABLED && !(this.config.AUTH_RATE_LIMIT_EXEMPT_LOOPBACK && LOOPBACK.test(address))
    );
  }

  private knownBlockMs(key: string, now: number): number {
    return Math.max(0, (this.knownBlocks.get(key, now) ?? 0) - now);
  }

  /** What the rules weigh before a check: this process's memory, then (operator secrets) the store. */
  private async stateBefore(kind: CredentialKind, keys: Keys): Promise<BeforeCheck> {
    const now = Date.now();
    const state = {
      kind,
      credentialBlockedMs: this.knownBlockMs(keys.credential, now),
      addressBlockedMs: this.knownBlockMs(keys.address, now),
      vouched: false,
    };
    // A project key is checked whatever its address did, and a valid one never fails: memory is enough.
    if (!OPERATOR_SECRETS.has(kind) || state.credentialBlockedMs > 0) return state;
    const [credential, address] = await Promise.all([
      this.state(this.byCredential, keys.credential),
      this.state(this.byAddress, keys.address),
    ]);
    state.credentialBlockedMs = this.blockedMs(
      keys.credential,
      credential,
      this.config.AUTH_RATE_LIMIT_CREDENTIAL_FAILURES,
    );
    state.addressBlockedMs = Math.max(
      state.addressBlockedMs,
      this.blockedMs(keys.address, address, this.config.AUTH_RATE_LIMIT_FAILURES),
    );
    if (state.addressBlockedMs > 0) state.vouched = await this.vouched(keys.vouch);
    return state;
  }

  /** How long a stored count blocks its key (remembered in this process), or 0. */
  private blockedMs(key: string, state: RateLimiterRes | null, limit: number): number {
    if (!state || state.consumedPoints <= limit) return 0;
    this.knownBlocks.set(key, Date.now() + state.msBeforeNext);
    return state.msBeforeNext;
  }

  private async failed(kind: CredentialKind, keys: Keys): Promise<void> {
    const credential = await this.consume(this.byCredential, keys.credential);
    // Only a credential not yet blocked on its own is a new guess its address pays for.
    const address = addressPaysFor(credential.consumed, this.config.AUTH_RATE_LIMIT_CREDENTIAL_FAILURES)
      ? await this.consume(this.byAddress, keys.address)
      : { consumed: 0, blockedMs: 0 };
    const refuseMs = refusalAfterFailure(credential.blockedMs, address.blockedMs);
    if (refuseMs === 0) {
      this.failures.inc({ kind, outcome: 'unauthorized' });
      return;
    }
    const now = Date.now();
    if (credential.blockedMs > 0) this.knownBlocks.set(keys.credential, now + credential.blockedMs);
    if (address.blockedMs > 0) this.knownBlocks.set(keys.address, now + address.blockedMs);
    this.refuse(kind, refuseMs);
  }

  private async vouched(key: string): Promise<boolean> {
    if (this.knownVouches.get(key)) return true;
    const state = await this.state(this.vouches, key);
    if (!state || state.consumedPoints < 1) return false;
    this.knownVouches.set(key, true);
    return true;
  }

  /** Remembers that an operator secret checked out from this address (written at most every VOUCH_REFRESH_MS). */
  private async vouch(key: string): Promise<void> {
    if (this.knownVouches.get(key)) return;
    this.knownVouches.set(key, true);
    try {
      await this.vouches.set(key, 1, VOUCH_SECONDS);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'auth vouch not stored; this process remembers it');
    }
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

  /** Counts one failure: the key's failures in the window, and how long it is now blocked (0: not). */
  private async consume(limiter: RateLimiterAbstract, key: string): Promise<{ consumed: number; blockedMs: number }> {
    try {
      const result = await limiter.consume(key);
      return { consumed: result.consumedPoints, blockedMs: 0 };
    } catch (result) {
      if (result instanceof RateLimiterRes) return { consumed: result.consumedPoints, blockedMs: result.msBeforeNext };
      // Both Redis and the in-memory insurance failed: the 401 stands, uncounted.
      this.logger.warn({ err: (result as Error).message }, 'auth failure not counted');
      return { consumed: 0, blockedMs: 0 };
    }
  }
}
