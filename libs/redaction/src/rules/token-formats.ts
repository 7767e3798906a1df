import type { Finding } from '../finding';
import { GATE } from '../prefilter';
import { findAll, type TextRule } from './rule';
import { looksRandom } from './values';

/**
 * Formats the secretlint preset does not know, each recognised by its fixed prefix and
 * shape. `group` is the part that goes when the rest is a label (`AccountKey=`).
 *
 * A run that may be as long as the text and must be followed by more (a JWT's dots, OpenAI's
 * `T3BlbkFJ`) starts only where no run of its characters was going on: a lookbehind rather
 * than `\b`, which `-` and `_` satisfy inside a run, so `eyJ-eyJ-…` does not have every `eyJ`
 * read the rest of the run again.
 */
const FORMATS: ReadonlyArray<{ kind: string; pattern: RegExp; group?: number; random?: boolean }> = [
  { kind: 'stripe-key', pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}\b/g },
  { kind: 'stripe-webhook-secret', pattern: /\bwhsec_[A-Za-z0-9+/]{24,}={0,2}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    kind: 'azure-key',
    pattern: /\b(?:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)=([A-Za-z0-9+/]{20,}={0,2})/g,
    group: 1,
  },
  { kind: 'azure-sas', pattern: /[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})/g, group: 1 },
  { kind: 'pypi-token', pattern: /\bpypi-Ag[A-Za-z0-9_-]{50,}/g },
  // The preset's SendGrid pattern allows no '-' in the key's first part; real keys have them.
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { kind: 'twilio-key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'memex-api-key', pattern: /\bmx_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  // The preset's OpenAI pattern ends at a word boundary, which a key ending in '-' or '_' lacks.
  {
    kind: 'openai-key',
    pattern: /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}/g,
  },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{80,}/g },
  // OpenAI-style keys the preset's exact shapes miss (older and newer layouts, compatible APIs).
  { kind: 'api-key', pattern: /\bsk-(?:[a-z]+-)?[A-Za-z0-9_-]{32,}/g, random: true },
];

export const tokenFormats: TextRule = {
  name: 'token-formats',
  gates: GATE.token | GATE.context,
  trigger:
    /[sr]k_|whsec_|AIza|SG\.|AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey|sig=|pypi-|SK[0-9a-f]|eyJ|mx_|sk-/,
  find(text) {
    const findings: Finding[] = [];
    for (const format of FORMATS) {
      for (const f of findAll(text, format.pattern, format.kind, format.group)) {
        if (!format.random || looksRandom(text.slice(f.start, f.end))) findings.push(f);
      }
    }
    return findings;
  },
};
