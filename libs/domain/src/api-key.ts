import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A recognisable prefix lets secret scanners find leaked keys. */
export const API_KEY_PREFIX = 'mx_';
const API_KEY_PATTERN = /^mx_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** Keys carry 256 random bits, so a fast unsalted hash is enough and keeps lookups indexable. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
