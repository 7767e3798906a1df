import type IORedis from 'ioredis';
import { TtlCache } from './ttl-cache';

/**
 * Values every replica can read (assembled brains): Redis in server mode, this process's
 * memory in embedded mode (one process). A cache: a failure to read or write only costs the
 * work of building the value again, so neither throws.
 */
export interface SharedCache {
  get(key: string): Promise<string | null>;
  /** Sets each entry for `ttlSeconds`. */
  setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number): Promise<void>;
}

export const SHARED_CACHE = Symbol('SHARED_CACHE');

export class RedisSharedCache implements SharedCache {
  constructor(
    private readonly redis: IORedis,
    private readonly onWriteError: (error: Error) => void,
  ) {}

  get(key: string): Promise<string | null> {
    return this.redis.get(key).catch(() => null);
  }

  async setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number): Promise<void> {
    const multi = this.redis.multi();
    for (const [key, value] of entries) multi.set(key, value, 'EX', ttlSeconds);
    await multi.exec().catch((error: Error) => this.onWriteError(error));
  }
}

/** Entries kept at most in memory: a brain is tens of kilobytes. */
const MEMORY_ENTRIES = 500;

export class MemorySharedCache implements SharedCache {
  private readonly entries = new Map<number, TtlCache<string>>();

  async get(key: string): Promise<string | null> {
    for (const cache of this.entries.values()) {
      const value = cache.get(key);
      if (value !== undefined) return value;
    }
    return null;
  }

  async setMany(entries: ReadonlyArray<readonly [string, string]>, ttlSeconds: number): Promise<void> {
    let cache = this.entries.get(ttlSeconds);
    if (!cache) {
      cache = new TtlCache<string>(ttlSeconds * 1000, MEMORY_ENTRIES);
      this.entries.set(ttlSeconds, cache);
    }
    for (const [key, value] of entries) cache.set(key, value);
  }
}
