import type { Finding } from '../finding';
import { GATE, isKnownIdText } from '../prefilter';
import { findAll, type TextRule } from './rule';
import { isBasicCredential, isInertValue, looksRandom } from './values';

/**
 * `<private>…</private>`: what a person marks as not for memory goes whole, tags included.
 * An unclosed span runs to the end of the text: the person meant what follows.
 */
export const privateSpans: TextRule = {
  name: 'private',
  gates: GATE.private,
  trigger: /<private>/i,
  find: (text) => findAll(text, /<private>[\s\S]*?(?:<\/private>|$)/gi, 'private'),
};

const PEM_BEGIN = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----/g;
/**
 * A PEM body cut off before its end marker: header lines of legacy encrypted keys, then
 * base64 lines (line breaks also escaped, as in JSON), up to the first line that is not.
 */
const PEM_BODY = /(?:\r?\n|\\n)?(?:(?:Proc-Type|DEK-Info):[^\n]*\n\n?|[A-Za-z0-9+/=]+(?:\r?\n|\\n))*[A-Za-z0-9+/=]*/y;
const MAX_PEM = 20_000;

/**
 * Whether a PEM body holds key material: base64 (past line breaks, escaped ones and headers),
 * not a pattern or a placeholder (`[A-Za-z0-9+/=]+`, `...`) as code and documentation about
 * keys show. A few characters are enough: a key cut off early is still part of a key.
 */
function holdsKey(body: string): boolean {
  const base64 = body.replace(/(?:Proc-Type|DEK-Info):[^\n]*|\\[nr]|\s/g, '');
  return /^[A-Za-z0-9+/]{16,}={0,2}$/.test(base64);
}

/**
 * Private keys in PEM (RSA, EC, PKCS #8, OpenSSH, PGP …): the whole block, markers included.
 * A block's end is the first `-----END ` after its start (a body holds no dashes), looked for
 * once for all the blocks before it: searching from each start for its own end marker read
 * the rest of the text again for every start marker without one.
 */
export const pemBlocks: TextRule = {
  name: 'private-key',
  gates: GATE.token,
  trigger: /PRIVATE KEY/,
  find(text) {
    const findings: Finding[] = [];
    let nextEnd = -1;
    for (const begin of text.matchAll(PEM_BEGIN)) {
      const from = begin.index + begin[0].length;
      if (nextEnd !== Number.POSITIVE_INFINITY && nextEnd < from) {
        const at = text.indexOf('-----END ', from);
        nextEnd = at < 0 ? Number.POSITIVE_INFINITY : at;
      }
      const endMarker = `-----END ${begin[1]}-----`;
      if (nextEnd - from <= MAX_PEM && text.startsWith(endMarker, nextEnd)) {
        if (holdsKey(text.slice(from, nextEnd))) {
          findings.push({ start: begin.index, end: nextEnd + endMarker.length, kind: 'private-key' });
        }
        continue;
      }
      // No end marker (a key cut off mid-way): the body as far as it goes.
      PEM_BODY.lastIndex = from;
      const body = PEM_BODY.exec(text)?.[0] ?? '';
      if (holdsKey(body)) findings.push({ start: begin.index, end: from + body.length, kind: 'private-key' });
    }
    return findings;
  },
};

/** `scheme://user:password@host`: the password goes, so what the URL points at stays readable. */
const URL_CREDENTIALS =
  /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:@/?#"'<>`]*:([^\s@/?#"'<>`]+)@(?=[^\s@/?#"'<>`]*[A-Za-z0-9\]])/gi;

export const urlCredentials: TextRule = {
  name: 'url-password',
  gates: GATE.url,
  trigger: /:\/\/[^\s:@/]*:[^\s@/]+@/,
  find: (text) =>
    findAll(text, URL_CREDENTIALS, 'password', 1).filter((f) => !isInertValue(text.slice(f.start, f.end))),
};

const AUTHORIZATION =
  /\b(?:proxy-)?authorization(["']?[ \t]*[:=][ \t]*["'`]?)(?:(bearer|basic|token|digest|bot|apikey|key)[ \t]+)?([A-Za-z0-9._~+/=:@%-]+)/gi;
const BEARER = /\bBearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/g;
/** Bare credentials, without a header naming them: long enough to be one (16), as the first look requires. */
const BASIC = /\bBasic[ \t]+([A-Za-z0-9+/]{16,}={0,2})(?![A-Za-z0-9+/=])/g;

const SCHEME_KINDS: Record<string, string> = { bearer: 'bearer-token', basic: 'basic-auth' };

/**
 * `Authorization:` headers (curl lines, HTTP dumps, code) and bare `Bearer …` / `Basic …`
 * credentials: the credential goes, the header and its scheme stay.
 */
export const authorizationHeaders: TextRule = {
  name: 'authorization',
  gates: GATE.token | GATE.context,
  trigger: /authorization|bearer|basic/i,
  find(text) {
    const findings: Finding[] = [];
    for (const m of text.matchAll(AUTHORIZATION)) {
      const [, , scheme, credential = ''] = m;
      const start = m.index + m[0].length - credential.length;
      // With a scheme the header says what follows is a credential; without, it must look like one.
      const isCredential = scheme ? credential.length >= 6 && !isInertValue(credential) : looksRandom(credential);
      if (!isCredential) continue;
      const kind = (scheme && SCHEME_KINDS[scheme.toLowerCase()]) ?? 'authorization';
      findings.push({ start, end: start + credential.length, kind });
    }
    for (const f of findAll(text, BEARER, 'bearer-token', 1)) {
      const credential = text.slice(f.start, f.end);
      if (looksRandom(credential) && !isKnownIdText(credential)) findings.push(f);
    }
    for (const f of findAll(text, BASIC, 'basic-auth', 1)) {
      const credential = text.slice(f.start, f.end);
      if (/[A-Z0-9]/.test(credential) && isBasicCredential(credential)) findings.push(f);
    }
    return findings;
  },
};
