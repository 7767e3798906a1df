const TOKEN = 1;
const STRONG = 2;
const NAME = 4;
const SPACE_OR_QUOTE = 8;

/**
 * Character classes: token characters (STRONG: upper case and digits), name characters,
 * spaces and quotes. A table of every UTF-16 unit, so a lookup needs no range check.
 */
const CLASSES = new Uint8Array(65536);
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
  while (end > 0 && at - end < 4 && CLASSES[text.charCodeAt(end - 1)]! & SPACE_OR_QUOTE) end--;
  let start = end;
  while (start > 0 && end - start < MAX_NAME && CLASSES[text.charCodeAt(start - 1)]! & NAME) start--;
  return start < end && holdsSecretWord(text, start, end);
}

const SAMPLE = MIN_RUN / 2;

/**
 * Ids no rule takes for a secret, which Claude Code sessions are full of: UUIDs, and the
 * model's tool-use, message and request ids (`toolu_01…`, `msg_01…`, `req_01…`). Every tool
 * event carries one; left in, they would send nearly every event past the first look.
 */
const KNOWN_ID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:srvtoolu|toolu|msg|req)_[A-Za-z0-9]{8,40})$/i;

function isKnownId(text: string, start: number, end: number): boolean {
  return end - start <= 50 && KNOWN_ID.test(text.slice(start, end));
}

/** One of those ids, whole. */
export function isKnownIdText(text: string): boolean {
  return isKnownId(text, 0, text.length);
}

/**
 * A run of MIN_RUN token characters with a capital or digit in it. Only every SAMPLE-th
 * character is looked at first: a run that long always holds two samples SAMPLE apart, and in
 * prose the characters between two samples are rarely all one word, which a few steps back
 * from the later sample show.
 */
function hasTokenRun(text: string): boolean {
  const n = text.length;
  for (let p = SAMPLE; p < n; p += SAMPLE) {
    if (!(CLASSES[text.charCodeAt(p)]! & TOKEN)) continue;
    let start = p;
    while (start > p - SAMPLE && CLASSES[text.charCodeAt(start - 1)]! & TOKEN) start--;
    if (start > p - SAMPLE) continue;
    let end = p + 1;
    while (start > 0 && CLASSES[text.charCodeAt(start - 1)]! & TOKEN) start--;
    while (end < n && CLASSES[text.charCodeAt(end)]! & TOKEN) end++;
    if (end - start >= MIN_RUN && !isKnownId(text, start, end)) {
      for (let i = start; i < end; i++) if (CLASSES[text.charCodeAt(i)]! & STRONG) return true;
    }
    // The next sample past this run.
    p = end - (end % SAMPLE);
  }
  return false;
}

/** A `:` or `=` after a name that could name a secret, each separator found by native search. */
const SEPARATORS = [':', '='];

function hasSecretName(text: string): boolean {
  for (const separator of SEPARATORS) {
    for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + 1)) {
      if (namesSecretBefore(text, at)) return true;
    }
  }
  return false;
}

function hasPrivateTag(text: string): boolean {
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    if (text.slice(at + 1, at + 8).toLowerCase() === 'private') return true;
  }
  return false;
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
  /**
   * A word that says a secret may follow without a separator, or a command that takes one in
   * a flag: secrets said in sentences (`the password is …`), `--password pw`, `mysql -ppw`,
   * `sshpass -p`, `curl -u user:pw`.
   */
  words: 16,
} as const;

/** What GATE.words looks for: one case-insensitive search, about 0.5 µs a kilobyte of prose. */
const SECRET_WORDS_OR_COMMANDS =
  /pass(?:w|ph)|pwd|secret|token|api.?key|mysql|mariadb|sshpass|redis-cli|curl|wget|login/i;

/**
 * What the text could hold for a built-in rule to find: a run of 16 token characters with an
 * upper-case letter or digit in it (every key and token format, PEM bodies, JWT parts), a `:`
 * or `=` after a name that could name a secret, an `@` after a `://`, `<private`, or a word or
 * command that secrets follow in sentences and command lines. 0 means
 * no built-in rule can find anything; a gate that is set only means the rules behind it must
 * look. About 2 µs a kilobyte of prose: the separators are found by native search, and runs
 * by sampling (where one regular expression of every rule's trigger took 25 µs).
 */
export function secretGates(text: string): number {
  let gates = 0;
  if (hasTokenRun(text)) gates |= GATE.token;
  if (hasSecretName(text)) gates |= GATE.context;
  const scheme = text.indexOf('://');
  if (scheme >= 0 && text.indexOf('@', scheme) >= 0) gates |= GATE.url;
  if (hasPrivateTag(text)) gates |= GATE.private;
  if (SECRET_WORDS_OR_COMMANDS.test(text)) gates |= GATE.words;
  return gates;
}
