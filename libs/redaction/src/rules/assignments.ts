import type { Finding } from '../finding';
import { GATE } from '../prefilter';
import type { TextRule } from './rule';
import { secretKindOfLastWord, secretKindOfName } from './secret-names';
import { isBasicCredential, isInertValue, looksRandom } from './values';

/** Could name a secret (a superset of what secretKindOfName accepts, and `auth`). */
const SECRET_WORD = /pass|pwd|secret|token|key|credential|dsn|auth/i;
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
/** A YAML value: the rest of its line (a comment is cut off after). */
const BARE_LINE_VALUE = /[^\n]{1,400}/y;

/**
 * Where an assignment stands, which says how far its value is taken on trust:
 * - `env`: `NAME=value` opening its line (`.env`, shell, properties, INI), or an upper-case
 *   NAME starting a word of a command line (`export A=1 DB_PASSWORD=…`, `docker run -e
 *   POSTGRES_PASSWORD=…`, `PGPASSWORD=… psql`): the value goes whatever it looks like;
 * - `line`: `name: value` opening its line (YAML, pretty-printed JSON, one property of an
 *   object literal a line): the value goes unless it reads as code or prose;
 * - `code`: anywhere else: the value must look generated.
 */
type Style = 'env' | 'line' | 'code';

/** `name<separator>value`, as found at one separator. */
interface Assignment {
  name: string;
  style: Style;
  value: string;
  valueStart: number;
  quoted: boolean;
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
/** What may stand just before a variable set on a command line. */
const COMMAND_WORD_START = new Set([' ', '\t', ';', '&', '|', '(', '"', "'", '`']);

function styleOf(text: string, separator: string, at: number, name: { name: string; start: number }): Style {
  if (separator === '=') {
    if (opensLine(text, name.start)) return 'env';
    const before = text[name.start - 1];
    if (ENV_NAME.test(name.name) && before !== undefined && COMMAND_WORD_START.has(before)) return 'env';
  }
  if (separator === ':' && /^[ \t]/.test(text[at + 1] ?? '') && opensLine(text, name.start)) return 'line';
  return 'code';
}

/** The kind a name gives its value in a style: dotted names (`user.password_hash`) by their last word. */
function kindOf(a: Assignment): string | undefined {
  if (a.style === 'line' || (a.style === 'env' && a.name.includes('.'))) return secretKindOfLastWord(a.name);
  return secretKindOfName(a.name, a.style === 'env' ? 'env' : 'code');
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

const LINE_OPENING = /(?:^|\n)[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?["']?$/;

/**
 * Whether only indentation, `export `, a list's `- ` or a quote stand between the line's start
 * and `start`. Looked for within MAX_INDENT characters: searching back for the line's start had
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
    const style = styleOf(text, separator, at, name);
    const bare = style === 'env' ? BARE_ENV_VALUE : style === 'line' ? BARE_LINE_VALUE : BARE_VALUE;
    const { value, start, quoted } = valueAfter(text, at + separator.length, bare);
    const assignment = {
      name: name.name,
      style,
      value: quoted ? value : trimLineValue(value, style),
      valueStart: start,
      quoted,
    };
    valueEnd = start + assignment.value.length;
    yield assignment;
  }
}

/** A YAML value without its comment or trailing spaces. */
function trimLineValue(value: string, style: Style): string {
  return style === 'line' ? value.replace(/[ \t]+#.*$/, '').replace(/\s+$/, '') : value;
}

/** Function words: a value holding one is a sentence (`must be at least 8 characters`), not a secret. */
const PROSE =
  /(?:^|\s)(?:a|an|the|is|are|be|to|of|in|for|and|or|not|no|your|you|please|must|should|this|that|with|from|at|by|on|it|will|can|see|use|set|enter|when|if)(?:\s|$)|[.?!]$/i;
/** Code on a line of its own: a call, a type union, an arrow, a property list's comma. */
const CODE = /[,;{[(]$|[()|<>]|=>|&&/;

/**
 * Secrets known by their name (see Style): in `env` style the value goes whatever it looks
 * like (a short password is still a password) unless it is inert (a reference, placeholder,
 * flag or small number); in `line` style too, unless it reads as code (`token: string;`,
 * `password: z.string()`, `apiKey: apiKey,`) or a sentence (`password: must be 8 characters`);
 * elsewhere, and where those fail, the value must also look generated (looksRandom), so
 * `token: string`, `password: z.string()` and `token: accessToken` stay. A name ending in
 * `auth` keeps base64 of `user:password` (Docker's config.json: `"auth": "…"`).
 */
export const assignments: TextRule = {
  name: 'assignment',
  gates: GATE.context,
  trigger: SECRET_WORD,
  find(text) {
    const findings: Finding[] = [];
    for (const a of assignmentsIn(text)) {
      if (isInertValue(a.value)) continue;
      const named = kindOf(a) ?? basicAuthKind(a);
      if (named && trusted(a, named)) {
        findings.push({ start: a.valueStart, end: a.valueStart + a.value.length, kind: named });
        continue;
      }
      // As code: what looks generated, as far as code's punctuation.
      const kind = secretKindOfName(a.name, 'code');
      const value = a.quoted ? a.value : (CODE_VALUE.exec(a.value)?.[0] ?? '');
      if (kind && !isIdentifier({ ...a, value }) && looksRandom(value)) {
        findings.push({ start: a.valueStart, end: a.valueStart + value.length, kind });
      }
    }
    return findings;
  },
};

const CODE_VALUE = /^[^\s"'`,;()[\]{}<>&]{1,400}/;

/** Whether the value goes whatever it looks like, by where the assignment stands. */
function trusted(a: Assignment, kind: string): boolean {
  if (kind === 'basic-auth' || a.style === 'env') return true;
  if (a.style !== 'line') return false;
  if (!a.quoted && (isIdentifier(a) || CODE.test(a.value))) return false;
  return !/\s/.test(a.value) || !PROSE.test(a.value);
}

function basicAuthKind(a: Assignment): string | undefined {
  return /auth$/i.test(a.name) && isBasicCredential(a.value) ? 'basic-auth' : undefined;
}

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
