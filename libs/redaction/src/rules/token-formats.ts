import type { Finding } from '../finding';
import { GATE } from '../prefilter';
import { findAll, type TextRule } from './rule';
import { looksRandom } from './values';

/**
 * Formats the secretlint preset does not know, each recognised by its fixed prefix and
 * shape: `prefix` (a literal, or a small expression) is what a text must hold for the format
 * to be looked for, all of them in one expression (the rule's trigger). `group` is the part
 * that goes when the rest is a label (`AccountKey=`) or says where it is (`/bot…/`).
 *
 * A run of characters that can be as long as the text starts only where no run of its own
 * characters was going on (a lookbehind rather than `\b`, which `-` and `_` satisfy inside a
 * run): otherwise `eyJ-eyJ-…` has every `eyJ` read the rest of the run again.
 */
const FORMATS: ReadonlyArray<{
  kind: string;
  prefix: string;
  pattern: RegExp;
  group?: number;
  /** What a match must also be, where its shape alone is too common. */
  check?: (match: string) => boolean;
}> = [
  { kind: 'stripe-key', prefix: '[sr]k_', pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}\b/g },
  { kind: 'stripe-webhook-secret', prefix: 'whsec_', pattern: /\bwhsec_[A-Za-z0-9+/]{24,}={0,2}/g },
  { kind: 'google-api-key', prefix: 'AIza', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    kind: 'azure-key',
    prefix: 'AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey',
    pattern: /\b(?:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)=([A-Za-z0-9+/]{20,}={0,2})/g,
    group: 1,
  },
  { kind: 'azure-sas', prefix: 'sig=', pattern: /[?&]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})/g, group: 1 },
  { kind: 'pypi-token', prefix: 'pypi-', pattern: /\bpypi-Ag[A-Za-z0-9_-]{50,}/g },
  // The preset's SendGrid pattern allows no '-' in the key's first part; real keys have them.
  {
    kind: 'sendgrid-key',
    prefix: 'SG\\.',
    pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  },
  { kind: 'twilio-key', prefix: 'SK[0-9a-f]', pattern: /\bSK[0-9a-f]{32}\b/g },
  {
    kind: 'jwt',
    prefix: 'eyJ',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g,
  },
  { kind: 'memex-api-key', prefix: 'mx_', pattern: /\bmx_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  // The preset's OpenAI pattern ends at a word boundary, which a key ending in '-' or '_' lacks.
  {
    kind: 'openai-key',
    prefix: 'sk-',
    pattern: /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}/g,
  },
  { kind: 'anthropic-key', prefix: 'sk-ant-', pattern: /\bsk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{80,}/g },
  // OpenAI-style keys the preset's exact shapes miss (older and newer layouts, compatible APIs).
  { kind: 'api-key', prefix: 'sk-', pattern: /\bsk-(?:[a-z]+-)?[A-Za-z0-9_-]{32,}/g, check: looksRandom },
  // Everyday services' tokens (issue 29), then their family.
  { kind: 'mailgun-key', prefix: 'key-', pattern: /(?<![\w-])key-[0-9a-z]{32}(?![\w-])/g },
  { kind: 'mailgun-key', prefix: '-[0-9a-f]{8}-', pattern: /(?<![\w-])[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![\w-])/g },
  { kind: 'digitalocean-token', prefix: 'do[opr]_v1_', pattern: /\bdo[opr]_v1_[a-f0-9]{64}(?![\w-])/g },
  {
    kind: 'telegram-bot-token',
    prefix: ':AA',
    pattern: /(?<![0-9])[0-9]{5,12}:AA[0-9A-Za-z_-]{30,40}(?![0-9A-Za-z_-])/g,
  },
  {
    kind: 'discord-token',
    prefix: '[MNO][A-Za-z0-9_-]{23,27}\\.',
    pattern: /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_.-])/g,
    // Its first part is the bot's user id (a number) in base64.
    check: (token) => /^\d{17,20}$/.test(fromBase64(token.slice(0, token.indexOf('.')))),
  },
  {
    kind: 'discord-webhook',
    prefix: '/api/webhooks/',
    pattern: /\bdiscord(?:app)?\.com\/api\/webhooks\/[0-9]{5,25}\/([A-Za-z0-9_-]{60,80})/g,
    group: 1,
  },
  { kind: 'age-secret-key', prefix: 'AGE-SECRET-KEY-1', pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  { kind: 'mailchimp-key', prefix: '-us[0-9]', pattern: /\b[0-9a-f]{32}-us[0-9]{1,2}\b/g },
  { kind: 'postman-key', prefix: 'PMAK-', pattern: /\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}\b/g },
  { kind: 'sentry-token', prefix: 'sntry[su]_', pattern: /\bsntry[su]_[A-Za-z0-9+/=_-]{40,}/g },
  { kind: 'heroku-key', prefix: 'HRKU-', pattern: /\bHRKU-[A-Za-z0-9_-]{40,}/g },
  { kind: 'atlassian-token', prefix: 'ATATT|ATBB', pattern: /\b(?:ATATT3|ATBB)[A-Za-z0-9_=.-]{28,}/g },
  {
    kind: 'doppler-token',
    prefix: 'dp\\.',
    pattern: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
  },
  { kind: 'pulumi-token', prefix: 'pul-', pattern: /\bpul-[a-f0-9]{40}\b/g },
  { kind: 'supabase-token', prefix: 'sbp_', pattern: /\bsbp_[a-f0-9]{40}\b/g },
  { kind: 'planetscale-token', prefix: 'pscale_', pattern: /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}/g },
  { kind: 'tailscale-key', prefix: 'tskey-', pattern: /\btskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9-]{20,}/g },
  { kind: 'google-oauth-secret', prefix: 'GOCSPX-', pattern: /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g },
  { kind: 'google-oauth-token', prefix: 'ya29\\.', pattern: /\bya29\.[A-Za-z0-9_-]{30,}/g },
  { kind: 'square-token', prefix: 'sq0(?:atp|csp)-', pattern: /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}/g },
  { kind: 'newrelic-key', prefix: 'NRAK-', pattern: /\bNRAK-[A-Z0-9]{27}\b/g },
  { kind: 'brevo-key', prefix: 'xkeysib-', pattern: /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g },
  { kind: 'perplexity-key', prefix: 'pplx-', pattern: /\bpplx-[A-Za-z0-9]{48}\b/g },
  { kind: 'xai-key', prefix: 'xai-', pattern: /\bxai-[A-Za-z0-9]{80}\b/g },
  { kind: 'replicate-token', prefix: 'r8_', pattern: /\br8_[A-Za-z0-9]{37}\b/g },
  { kind: 'mapbox-token', prefix: 'sk\\.eyJ', pattern: /\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g },
  { kind: 'contentful-token', prefix: 'CFPAT-', pattern: /\bCFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { kind: 'sonarqube-token', prefix: 'sq[pua]_', pattern: /\bsq[pua]_[a-f0-9]{40}\b/g },
  { kind: 'buildkite-token', prefix: 'bkua_', pattern: /\bbkua_[a-f0-9]{40}\b/g },
  { kind: 'rubygems-key', prefix: 'rubygems_', pattern: /\brubygems_[a-f0-9]{48}\b/g },
  {
    kind: 'terraform-token',
    prefix: '\\.atlasv1\\.',
    pattern: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/g,
  },
];

function fromBase64(encoded: string): string {
  try {
    return atob(
      encoded
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(encoded.length / 4) * 4, '='),
    );
  } catch {
    return '';
  }
}

/** Any format's prefix: a text without one is not looked through format by format. */
const ANY_PREFIX = new RegExp(FORMATS.map((f) => f.prefix).join('|'));
const PREFIXES = FORMATS.map((f) => new RegExp(f.prefix));

export const tokenFormats: TextRule = {
  name: 'token-formats',
  gates: GATE.token | GATE.context,
  trigger: ANY_PREFIX,
  find(text) {
    const findings: Finding[] = [];
    for (const [i, format] of FORMATS.entries()) {
      if (!PREFIXES[i]!.test(text)) continue;
      for (const f of findAll(text, format.pattern, format.kind, format.group)) {
        if (!format.check || format.check(text.slice(f.start, f.end))) findings.push(f);
      }
    }
    return findings;
  },
};
