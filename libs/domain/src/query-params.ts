import { z } from 'zod';

const DIGITS = /^[0-9]+$/;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/**
 * A whole number in a query string, within [min, max]: plain decimal digits and nothing else.
 * `Number()` (and z.coerce) would also take `0x1f4`, `6e3`, `500 `, `+500` and an empty
 * string (as 0), so a typo or a probe would pass for a number.
 */
export function queryInteger(min: number, max: number) {
  return z
    .string()
    .regex(DIGITS, 'must be a whole number in plain decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** A number with an optional decimal fraction (`0.75`), on the same terms as queryInteger. */
export function queryDecimal(min: number, max: number) {
  return z
    .string()
    .regex(DECIMAL, 'must be a number in plain decimal digits, like 0.75')
    .transform(Number)
    .pipe(z.number().min(min).max(max));
}
