import { ulid } from 'ulidx';
import { z } from 'zod';

/** Crockford base32, 26 characters: what `ulid()` produces. */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const ulidSchema = z.string().regex(ULID_PATTERN, 'must be a ULID');

export function newId(): string {
  return ulid();
}
