const TOKEN = 1;
const STRONG = 2;
const NAME = 4;
const SPACE_OR_QUOTE = 8;

/** ASCII character classes: token characters (STRONG: upper case and digits), name characters, spaces and quotes. */
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Z0-9]/.test(ch)) CLASSES[c] = TOKEN | STRONG | NAME;
  else if (/[a-z_-]/.test(ch)) CLASSES[c] = TOKEN | NAME;
  else if (ch === '+' || ch === '/') CLASSES[c] = TOKEN;
  else if (ch === '.') CLASSES[c] = NAME;
  else if (/[ \t"'`]/.test(ch)) CLASSES[c] = SPACE_OR_QUOTE;
}

/** Every known format has a run this long of token characters (its random part, or prefix and part). */
const MIN_RUN = 16;
const MAX_NAME = 80;
/**
 * Words of the names whose values the context rules look at (see secretKindOfName), and
 * `sig` of SAS URLs, lower case. Looked for by hand: a regular expression on a slice at every
 * `:` and `=` of a JSON or TypeScript text cost more than the rest of the scan.
 */
const SECRET_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'dsn', 'auth', 'sig'].map((w) =>
  Array.from(w, (ch) => ch.charCodeAt(0)),
);

function holdsSecretWord(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    // ASCII letters to lower case; other name characters are left as they are.
    const first = text.charCodeAt(i) | 0x20;
    for (const word of SECRET_WORDS) {
      if (word[0] !== first || i + word.length > end) continue;
      let j = 1;
      while (j < word.length && (text.charCodeAt(i + j) | 0x20) === word[j]) j++;
      if (j === word.length) return true;
    }
  }
  return false;
}

/** Whether the name just before `at` (past spaces and quotes) could name a secret. */
function namesSecretBefore(text: string, at: number): boolean {
  let end = at;
  while (end > 0 && at - end < 4 && (CLASSES[text.charCodeAt(end - 1)] ?? 0) & SPACE_OR_QUOTE) end--;
  let start = end;
  while (start > 0 && end - start < MAX_NAME && (CLASSES[text.charCodeAt(start - 1)] ?? 0) & NAME) start--;
  return start < end && holdsSecretWord(text, start, end);
}

/** What a text could hold, by what the rules that might find it need. */
export const GATE = {
  /** A run of token characters: key and token formats, PEM bodies, JWT parts, bare bearer tokens. */
  token: 1,
  /** A `:` or `=` after a name that could name a secret: assignments, `.env` lines, Authorization headers. */
  context: 2,
  /** An `@` after a `://`: credentials in URLs. */
  url: 4,
  /** `<private`: a span a person marked. */
  private: 8,
} as const;

/**
 * What the text could hold for a built-in rule to find, in one pass over its characters
 * (about 5 µs a kilobyte, where one regular expression of every rule's trigger took 25 µs):
 * a run of 16 token characters with an upper-case letter or digit in it (every key and token
 * format, PEM bodies, JWT parts), a `:` or `=` after a name that could name a secret, an `@`
 * after a `://`, or `<private`. 0 means no built-in rule can find anything; a gate that is
 * set only means the rules behind it must look.
 */
export function secretGates(text: string): number {
  let gates = 0;
  let run = 0;
  let strong = false;
  let scheme = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const cls = c < 128 ? CLASSES[c]! : 0;
    if (cls & TOKEN) {
      run += 1;
      if (cls & STRONG) strong = true;
      if (run >= MIN_RUN && strong) gates |= GATE.token;
      continue;
    }
    run = 0;
    strong = false;
    if (c === 58 /* : */ || c === 61 /* = */) {
      if (c === 58 && text.charCodeAt(i + 1) === 47 && text.charCodeAt(i + 2) === 47) scheme = true;
      if (!(gates & GATE.context) && namesSecretBefore(text, i)) gates |= GATE.context;
    } else if (c === 64 /* @ */) {
      if (scheme) gates |= GATE.url;
    } else if (c === 60 /* < */) {
      if (text.slice(i + 1, i + 8).toLowerCase() === 'private') gates |= GATE.private;
    }
  }
  return gates;
}
