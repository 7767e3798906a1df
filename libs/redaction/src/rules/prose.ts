import type { Finding } from '../finding';
import { GATE } from '../prefilter';
import type { TextRule } from './rule';
import { isInertValue, looksRandom } from './values';

/**
 * A secret said in a sentence: `the staging password is hunter2-Blue`, `password for admin:
 * S3cret!`, `with secret q8Vd…`, `the API key is 3f9a…`. The word, then at most two short
 * qualifiers (`for admin`, `of the db`), then maybe a verb or a colon, then the value. Every
 * part is bounded, so each word costs a bounded look ahead.
 */
const STATED =
  /\b(pass(?:word|phrase|wd)|pwd|secret|token|api[ _-]?key)s?\b((?:[ \t]+(?:for|of|on|in|to|at)[ \t]+(?:the[ \t]+)?[\w.@/-]{1,60}){0,2})(?:[ \t]{1,4}(is now|is set to|was set to|set to|changed to|is|was)[ \t]{0,4}:?[ \t]{1,4}|[ \t]{0,4}([:=])[ \t]{0,4}|[ \t]{1,4})(["'`]?)([^\s"'`]{1,200})/gi;

const PASSWORD_WORDS = /^(?:pass(?:word|phrase|wd)|pwd)$/i;
/** Full stops, closing brackets and the like that end a sentence or a note, not the value. */
const TRAILING = /[.,;:!?)\]}>]+$/;
/** What a generated key or token is made of: no brackets, escapes or control characters. */
const TOKEN_ALPHABET = /^[A-Za-z0-9+/=_.~-]{12,}$/;

/**
 * Whether a value named by the word alone (`with secret q8Vd…`), or said to be a token or key,
 * was generated: a token's alphabet, a digit, and looksRandom. Capitalised words
 * (`Secret Auto-Redaction`) and terminal output (`tokens (0.3%)`) are not.
 */
function looksGenerated(value: string): boolean {
  return TOKEN_ALPHABET.test(value) && /\d/.test(value) && looksRandom(value);
}

/**
 * Whether a value said to be a password is one: not a word of the sentence (`stored`,
 * `required`, `case-sensitive`) but something with a digit, a symbol or a capital inside
 * (`hunter2-Blue`, `P@ssw0rd`). A password of plain lower-case words cannot be told from prose.
 */
function looksLikePassword(value: string): boolean {
  if (value.length < 6 || isInertValue(value)) return false;
  // Code and paths: `getPassword()`, `$PGPASSWORD`, `/run/secrets/db`, a URL.
  if (/[()$\\]|^\.{0,2}\/|:\/\//.test(value) || /\p{Cc}/u.test(value)) return false;
  return /\d/.test(value) || /[^A-Za-z0-9-]/.test(value) || /[a-z][A-Z]/.test(value);
}

export const statedSecrets: TextRule = {
  name: 'stated-secret',
  gates: GATE.words | GATE.token,
  trigger: /pass(?:word|phrase|wd)|pwd|secret|token|api[ _-]?key/i,
  find(text) {
    const findings: Finding[] = [];
    for (const m of text.matchAll(STATED)) {
      const [whole, word, , said, sign, quote, raw] = m;
      const verb = said ?? sign;
      const value = quote ? raw! : raw!.replace(TRAILING, '');
      if (!value || (quote && !text.startsWith(quote, m.index + whole.length))) continue;
      const password = PASSWORD_WORDS.test(word!);
      // Said to be the password (`is`, `:`): it need only look like one; named alone, it must look generated.
      // An unquoted name (`token: accessToken`) is a variable, not the value.
      if (!quote && /^[A-Za-z_$][A-Za-z_$]*$/.test(value)) continue;
      const secret = verb && password ? looksLikePassword(value) : looksGenerated(value);
      if (!secret) continue;
      const start = m.index + whole.length - raw!.length;
      findings.push({ start, end: start + value.length, kind: password ? 'password' : kindOfWord(word!) });
    }
    return findings;
  },
};

function kindOfWord(word: string): string {
  const lower = word.toLowerCase();
  return lower === 'secret' ? 'secret' : lower === 'token' ? 'token' : 'api-key';
}

/** An AWS access key id: a secret key is looked for just after it. */
const AWS_KEY_ID = /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z2-7]{16}(?![A-Z0-9])/g;
/** 40 characters of base64, on their own: the length of an AWS secret access key. */
const BASE64_40 = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const NEAR = 100;

/**
 * An AWS secret key given next to its access key id (`AWS key AKIA… with secret q8Vd…`,
 * `AKIA…:q8Vd…`, a table row): 40 characters of base64 with capitals, small letters and digits
 * starting within 100 characters after the id. Alone, such a string could be anything (a git
 * SHA is 40 characters too, in one case); next to a key id it is the other half of the pair.
 */
export const awsKeyPairs: TextRule = {
  name: 'aws-key-pair',
  gates: GATE.token,
  trigger: /AKIA|ASIA/,
  find(text) {
    const findings: Finding[] = [];
    for (const id of text.matchAll(AWS_KEY_ID)) {
      const from = id.index + id[0].length;
      for (const candidate of text.slice(from, from + NEAR + 40).matchAll(BASE64_40)) {
        const secret = candidate[0];
        if (candidate.index > NEAR || !/[A-Z]/.test(secret) || !/[a-z]/.test(secret) || !/\d/.test(secret)) continue;
        findings.push({ start: from + candidate.index, end: from + candidate.index + 40, kind: 'aws-secret-key' });
        break;
      }
    }
    return findings;
  },
};
