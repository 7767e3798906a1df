const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL cannot store: U+0000, and UTF-16 halves without their pair (JSON lets a
 * client send "\ud800"; text columns would turn it into U+FFFD, jsonb refuses it). Rejecting
 * both up front keeps them from becoming a 5xx or a silent change at insert time.
 */
export function hasUnstorableChars(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

export function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Computed, not via Date: this runs for every event of every batch. */
function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/**
 * An ISO-8601 instant with an explicit zone whose every component is in range. The plain
 * regex check of a date-time lets 2024-02-30 through, which Date silently rolls over.
 */
export function isIsoInstant(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  if (year === undefined || month === undefined || day === undefined) return false;
  if (year < 1970 || year > 9999) return false;
  if (month < 1 || month > 12) return false;
  if (day < 1 || day > daysInMonth(year, month)) return false;
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 14 || Number(m[10]) > 59)) return false;
  return true;
}

/**
 * Depth and size of a JSON value, walked without recursion so a hostile, deeply nested
 * value cannot overflow the stack before it is rejected.
 */
export function jsonShape(value: unknown): { depth: number; hasUnstorableChars: boolean } {
  let depth = 0;
  let nul = false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, level] = stack.pop() as [unknown, number];
    if (level > depth) depth = level;
    if (typeof current === 'string') {
      if (hasUnstorableChars(current)) nul = true;
    } else if (Array.isArray(current)) {
      for (const child of current) stack.push([child, level + 1]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (hasUnstorableChars(key)) nul = true;
        stack.push([child, level + 1]);
      }
    }
  }
  return { depth, hasUnstorableChars: nul };
}
