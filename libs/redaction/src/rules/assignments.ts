import type { Finding } from '../finding';
import { GATE } from '../prefilter';
import type { TextRule } from './rule';
import { secretKindOfName } from './secret-names';
import { isInertValue, looksRandom } from './values';

/** Could name a secret (a superset of what secretKindOfName accepts). */
const SECRET_WORD = /pass|pwd|secret|token|key|credential|dsn/i;
const SEPARATORS = /:=|=>|[:=]/g;
const NAME_CHAR = /[A-Za-z0-9_.-]/;
const MAX_NAME = 80;
const MAX_VALUE = 400;
/**
 * An unquoted value: in code it ends at punctuation (and at `&`, where a query string's next
 * parameter starts), on a `.env` line at a space or comment.
 */
const BARE_VALUE = /[^\s"'`,;()[\]{}<>&]{1,400}/y;
const BARE_ENV_VALUE = /[^\s#"'`]{1,400}/y;

/** `name<separator>value`, as found at one separator. */
interface Assignment {
  name: string;
  /** A `.env` line: the name opens its line (after `export ` or a list's `- `) and `=` follows it. */
  envLine: boolean;
  value: string;
  valueStart: number;
  quoted: boolean;
}

/** Spaces, tabs and quotes between a name and its separator (`"api_key" :`). */
const BETWEEN = /[ \t"'`]/;
/** How far back a line's opening (indentation, `export `, a list's `- `) is looked for. */
const MAX_INDENT = 120;

function nameBefore(text: string, at: number): { name: string; start: number } | undefined {
  let end = at;
  while (end > 0 && at - end < 4 && BETWEEN.test(text[end - 1]!)) end--;
  let start = end;
  while (start > 0 && end - start < MAX_NAME && NAME_CHAR.test(text[start - 1]!)) start--;
  if (start === end) return undefined;
  return { name: text.slice(start, end), start };
}

const LINE_OPENING = /(?:^|\n)[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?$/;

/**
 * Whether only indentation, `export ` or a list's `- ` stand between the line's start and
 * `start`. Looked for within MAX_INDENT characters: searching back for the line's start had
 * every separator of a long line read the whole line again.
 */
function opensLine(text: string, start: number): boolean {
  const from = Math.max(0, start - MAX_INDENT);
  const opening = LINE_OPENING.exec(text.slice(from, start));
  return opening !== null && (from === 0 || opening[0].startsWith('\n'));
}

function valueAfter(text: string, from: number, bare: RegExp): { value: string; start: number; quoted: boolean } {
  let at = from;
  while (text[at] === ' ' || text[at] === '\t') at++;
  const quote = text[at];
  if (quote === '"' || quote === "'" || quote === '`') {
    // The closing quote within MAX_VALUE characters on the same line, found in that much text only.
    const window = text.slice(at + 1, at + 2 + MAX_VALUE);
    const close = window.indexOf(quote);
    const newline = window.indexOf('\n');
    if (close >= 0 && (newline < 0 || close < newline)) {
      return { value: window.slice(0, close), start: at + 1, quoted: true };
    }
    return { value: '', start: at, quoted: true };
  }
  bare.lastIndex = at;
  return { value: bare.exec(text)?.[0] ?? '', start: at, quoted: false };
}

/**
 * Every `name: value`, `name = value`, `"name": "value"`, `name => value`, `name := value`
 * and `--name=value` whose name could name a secret, found at the separators (so the cost is
 * in the separators, not the length of the text). `==`, `!=`, `<=`, `>=` and `://` are not
 * assignments. A separator inside the value of one found before is part of that value
 * (`KEY=a=b`), not an assignment of its own: otherwise a line of `KEY=KEY=…` would have each
 * separator read the next 400 characters again.
 */
function* assignmentsIn(text: string): Generator<Assignment> {
  let valueEnd = 0;
  for (const sep of text.matchAll(SEPARATORS)) {
    const at = sep.index;
    if (at < valueEnd) continue;
    const separator = sep[0];
    if (separator === ':' && text.startsWith('//', at + 1)) continue;
    if (separator === '=' && (text[at + 1] === '=' || /[=!<>]/.test(text[at - 1] ?? ''))) continue;
    const name = nameBefore(text, at);
    if (!name || !SECRET_WORD.test(name.name)) continue;
    const envLine = separator === '=' && opensLine(text, name.start);
    const { value, start, quoted } = valueAfter(text, at + separator.length, envLine ? BARE_ENV_VALUE : BARE_VALUE);
    valueEnd = start + value.length;
    yield { name: name.name, envLine, value, valueStart: start, quoted };
  }
}

/**
 * Secrets known by their name: a `.env` line (`DB_PASSWORD=…`) loses its value whatever it
 * looks like (a short password is still a password) unless it is inert (a reference,
 * placeholder, flag or small number); elsewhere (code, YAML, JSON, command lines) the value
 * must also look generated (looksRandom), so `token: string`, `password: z.string()` and
 * `token: accessToken` stay.
 */
export const assignments: TextRule = {
  name: 'assignment',
  gates: GATE.context,
  trigger: SECRET_WORD,
  find(text) {
    const findings: Finding[] = [];
    for (const a of assignmentsIn(text)) {
      const kind = secretKindOfName(a.name, a.envLine ? 'env' : 'code');
      if (!kind) continue;
      if (a.envLine ? isInertValue(a.value) : isIdentifier(a) || !looksRandom(a.value)) continue;
      findings.push({ start: a.valueStart, end: a.valueStart + a.value.length, kind });
    }
    return findings;
  },
};

/** An unquoted identifier is a variable (`token: accessToken`), not a literal. */
function isIdentifier(a: Assignment): boolean {
  return !a.quoted && /^[A-Za-z_$][A-Za-z_$]*$/.test(a.value);
}

/**
 * A structured field (event metadata, JSON bodies) whose key names a secret: its string
 * value goes unless inert, as in a `.env` line; prose (with spaces) stays unless the key
 * says password, since a passphrase has spaces and a `secretDescription` does too.
 */
export function fieldSecretKind(key: string, value: string): string | undefined {
  if (!SECRET_WORD.test(key)) return undefined;
  const kind = secretKindOfName(key, 'code');
  if (!kind || isInertValue(value)) return undefined;
  return kind === 'password' || !/\s/.test(value) ? kind : undefined;
}
