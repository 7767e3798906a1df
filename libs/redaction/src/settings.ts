/** An operator's own secret format: findings are labelled `name`; a first capture group narrows what goes. */
export interface ExtraPattern {
  name: string;
  pattern: RegExp;
}

/** What an operator adds to the built-in rules (REDACT_EXTRA_PATTERNS, REDACT_ALLOW). */
export interface RedactionSettings {
  extraPatterns: readonly ExtraPattern[];
  /** A finding whose text one of these matches whole is left as it is (a known test key, a fixture). */
  allow: readonly RegExp[];
}

export const NO_SETTINGS: RedactionSettings = { extraPatterns: [], allow: [] };

const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
const MAX_PATTERNS = 100;

function parseArray(json: string, what: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`must be a JSON array of ${what}`);
  }
  if (!Array.isArray(value)) throw new Error(`must be a JSON array of ${what}`);
  if (value.length > MAX_PATTERNS) throw new Error(`at most ${MAX_PATTERNS} entries`);
  return value;
}

function compile(source: unknown, flags: string, where: string): RegExp {
  if (typeof source !== 'string' || source.length === 0 || source.length > 1000) {
    throw new Error(`${where}: the pattern must be a string of 1-1000 characters`);
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, flags);
  } catch (error) {
    throw new Error(`${where}: not a valid regular expression (${(error as Error).message})`);
  }
  // A pattern that matches nothing at all would "find" an empty secret everywhere.
  if (new RegExp(source, flags.replace(/[gd]/g, '')).test('')) {
    throw new Error(`${where}: the pattern matches the empty string`);
  }
  return pattern;
}

/** `[{"name": "acme-token", "pattern": "acme_[A-Za-z0-9]{32}", "flags": "i"}]`; throws naming every problem's place. */
export function parseExtraPatterns(json: string): ExtraPattern[] {
  return parseArray(json, '{name, pattern} objects').map((entry, i) => {
    const where = `[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new Error(`${where}: must be an object {name, pattern, flags?}`);
    }
    const { name, pattern, flags = '', ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new Error(`${where}: unknown field ${Object.keys(rest)[0]}`);
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new Error(`${where}: name must be 1-40 lower-case letters, digits or -, starting with a letter or digit`);
    }
    if (typeof flags !== 'string' || !/^[imsu]*$/.test(flags))
      throw new Error(`${where}: flags may hold only i, m, s, u`);
    return { name, pattern: compile(pattern, `g${flags}d`, where) };
  });
}

/** `["AKIAIOSFODNN7EXAMPLE", "sk_test_[A-Za-z0-9]+"]`: each must match a finding's whole text. */
export function parseAllowList(json: string): RegExp[] {
  return parseArray(json, 'patterns').map((source, i) => {
    compile(source, '', `[${i}]`);
    return new RegExp(`^(?:${source as string})$`);
  });
}
