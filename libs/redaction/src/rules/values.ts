import { shannonEntropy } from '../entropy';

/**
 * Not a secret whatever names it: empty, a reference to one kept elsewhere (`$VAR`,
 * `${VAR}`, `$(cat file)`, `process.env.X`, `config.db.password`, `getPassword()`, a template),
 * a placeholder of the kind documentation uses (`<token>`, `***`, `xxxx`, `aaaaaaaa`,
 * `your-key`, a value cut with `...`, `changeme`), a flag, a small number, a keyword of code
 * (`await`, `new`), or what was redacted already. Placeholders are recognised whole (or
 * by `...`, which no key holds): a real password may well contain `xxx` or `example`.
 */
export function isInertValue(value: string): boolean {
  return (
    value.length === 0 ||
    value.startsWith('[REDACTED:') ||
    /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value) ||
    /\$\{|\$\(|\{\{|%\(|process\.env|os\.environ|getenv/i.test(value) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(.*)?$/.test(value) ||
    /^[A-Za-z_$][\w$]*\(/.test(value) ||
    /^(?:<[^<>]*>|x+|\*+)$/i.test(value) ||
    /^(.)\1*$/.test(value) ||
    /\.\.\.|…/.test(value) ||
    /^(?:your|my)[-_]/i.test(value) ||
    /^(?:changeme|example|placeholder|dummy|null|none|nil|undefined|true|false|yes|no|on|off|redacted|secret|password|await|new|lambda|function|self|this)$/i.test(
      value,
    ) ||
    /^\d{1,7}$/.test(value)
  );
}

/**
 * A value that looks generated rather than written: long enough, no spaces, letters with
 * digits or capitals among them, and about 3 bits of entropy a character. Words, sentences,
 * identifiers in lower case (`phc_development_key`) and short or repetitive strings are not;
 * keys, tokens and real passwords are.
 */
export function looksRandom(value: string): boolean {
  return (
    value.length >= 8 &&
    !/\s/.test(value) &&
    /[A-Za-z]/.test(value) &&
    /[A-Z0-9]/.test(value) &&
    /[a-z0-9]/.test(value) &&
    !isInertValue(value) &&
    shannonEntropy(value) >= 3
  );
}

/** Base64 of `user:password`, as Basic authentication sends it (and Docker's config.json keeps it). */
export function isBasicCredential(encoded: string): boolean {
  try {
    const decoded = atob(encoded);
    return /^[\x20-\x7e]+$/.test(decoded) && decoded.indexOf(':') > 0;
  } catch {
    return false;
  }
}
