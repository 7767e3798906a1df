import { getRandomValues } from 'node:crypto';
import { ulid } from 'ulidx';
import { z } from 'zod';

/** Crockford base32, 26 characters: what `ulid()` produces. */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const ulidSchema = z.string().regex(ULID_PATTERN, 'must be a ULID');

/**
 * Random bytes drawn a pool at a time: ulidx's default source asks the system for one byte
 * per character, which showed up on the ingest hot path.
 */
const pool = new Uint8Array(4096);
let next = pool.length;
function pooledRandom(): number {
  if (next >= pool.length) {
    getRandomValues(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

export function newId(): string {
  return ulid(undefined, pooledRandom);
}
