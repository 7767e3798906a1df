import type { lintSource as LintSource } from '@secretlint/core';
import type { Finding } from '../finding';

type Config = Parameters<typeof LintSource>[0]['options']['config'];
type Descriptor = Config['rules'][number];
type Message = Awaited<ReturnType<typeof LintSource>>['messages'][number];

const PREFIX = '@secretlint/secretlint-rule-';

/**
 * For each rule of the secretlint recommended preset, what a text must contain for the rule
 * to report anything (a superset of its patterns; case-sensitive, so they combine into one
 * expression). Secretlint runs a text through every rule it is given, about 190 µs a
 * kilobyte for the whole preset; given only the rules whose trigger matches, a text with
 * nothing suspicious costs no call at all. A rule the preset gains in an upgrade and this
 * table lacks fails the library's tests.
 */
export const SECRETLINT_TRIGGERS: Readonly<Record<string, RegExp>> = {
  aws: /AKIA|ASIA|A3T|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|[Ss]ecret_?[Aa]ccess_?[Kk]ey|SECRET_?ACCESS_?KEY/,
  gcp: /private_key/,
  privatekey: /-----BEGIN/,
  npm: /npm_|_authToken/,
  basicauth: /:\/\/[^\s:@/]+:[^\s@/]+@/,
  slack: /xox[bparo]-|xapp-|hooks\.slack\.com/,
  sendgrid: /SG\./,
  shopify: /shp(?:pa|ca|at|ss)_/,
  github: /gh[pousr]_|github_pat_/,
  gitlab: /glpat-/,
  grafana: /gl(?:c|sa)_/,
  openai: /sk-/,
  anthropic: /sk-ant-/,
  groq: /gsk_/,
  huggingface: /hf_/,
  linear: /lin_api_/,
  notion: /ntn_/,
  '1password': /ops_ey/,
  'database-connection-string': /(?:postgres|POSTGRES|mysql|MYSQL|mongodb|MONGODB)[A-Za-z+]*:\/\//,
  'hashicorp-vault': /hv[sbr]\./,
  vercel: /v(?:cp|ci|ca|cr|ck)_/,
  databricks: /dapi[0-9a-fA-F]/,
  docker: /dckr_pat_/,
  figma: /figd_/,
};

/** Rules that report a whole URL for the password in it: they look only where a URL holds credentials. */
export const SECRETLINT_URL_RULES: ReadonlySet<string> = new Set(['basicauth', 'database-connection-string']);

/**
 * Left out: `secretlint-disable` comments in a file switch rules off, and event content is
 * not a file its author lints: a comment in a session must not let a secret through.
 */
export const SECRETLINT_SKIPPED: ReadonlySet<string> = new Set(['filter-comments']);

/** The placeholder kind of a report, by rule (and message, where one rule finds several things). */
const KINDS: Readonly<Record<string, string>> = {
  'aws:AWSAccessKeyID': 'aws-access-key',
  'aws:AWSSecretAccessKey': 'aws-secret-key',
  gcp: 'gcp-service-account',
  privatekey: 'private-key',
  npm: 'npm-token',
  basicauth: 'password',
  'database-connection-string': 'password',
  'slack:IncomingWebhook': 'slack-webhook',
  slack: 'slack-token',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  github: 'github-token',
  gitlab: 'gitlab-token',
  grafana: 'grafana-token',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  groq: 'groq-key',
  huggingface: 'huggingface-token',
  linear: 'linear-key',
  notion: 'notion-token',
  '1password': '1password-token',
  'hashicorp-vault': 'vault-token',
  vercel: 'vercel-token',
  databricks: 'databricks-token',
  docker: 'docker-token',
  figma: 'figma-token',
};

/** Options of preset rules: AWS access key ids are scanned (off by default); account ids are not secrets. */
const RULE_SETTINGS: Readonly<Record<string, Partial<Descriptor>>> = {
  aws: { options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] } as Partial<Descriptor>,
};

export function shortRuleName(ruleId: string): string {
  return ruleId.startsWith(PREFIX) ? ruleId.slice(PREFIX.length) : ruleId;
}

function kindOf(message: Message): string {
  const name = shortRuleName(message.ruleId);
  return KINDS[`${name}:${message.messageId}`] ?? KINDS[name] ?? `${name}-secret`;
}

const USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^:@/\s]*:([^@/\s]+)@/i;

/**
 * Where the secret itself is. Some rules report a range that starts at the match and has the
 * secret's length (`aws_secret_access_key = …` leaves the key's tail outside it), so the
 * secret the report quotes is looked for from the range's start. A URL is narrowed to its
 * password: the user and host say what it points at and stay readable.
 */
function spanOf(text: string, message: Message): [number, number] {
  let [from, to] = message.range;
  for (const value of Object.values(message.data ?? {})) {
    if (typeof value !== 'string' || value.length < 4) continue;
    // Looked for within the range only: a value quoted but not found there is not read for to the end.
    const at = text.slice(from, to + value.length).indexOf(value);
    if (at >= 0) {
      [from, to] = [from + at, from + at + value.length];
      break;
    }
  }
  if (SECRETLINT_URL_RULES.has(shortRuleName(message.ruleId))) {
    const password = USERINFO.exec(text.slice(from, to));
    if (password) {
      const start = from + password[0].length - 1 - password[1]!.length;
      return [start, start + password[1]!.length];
    }
  }
  return [from, to];
}

/** A finding of a URL rule (a whole URL for its password), which comes after the specific formats. */
interface Reported extends Finding {
  url: boolean;
}

/**
 * Specific formats first, so a token used as a URL's password is named by its format; within
 * each, by where they start, with reports of one kind that overlap (one secret seen by two
 * windows, or cut by the end of one) made one.
 */
function inOrder(reports: Reported[]): Finding[] {
  const sorted = [...reports].sort((a, b) => Number(a.url) - Number(b.url) || a.start - b.start || b.end - a.end);
  const merged: Reported[] = [];
  for (const report of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.url === report.url && last.kind === report.kind && report.start < last.end) {
      last.end = Math.max(last.end, report.end);
    } else {
      merged.push({ ...report });
    }
  }
  return merged.map(({ start, end, kind }) => ({ start, end, kind }));
}

/**
 * Secretlint is handed a long text in windows of WINDOW characters, each overlapping the next
 * by OVERLAP (longer than any token the preset knows; PEM blocks are found whole by
 * pemBlocks), so every secret lies whole in some window, and the redactor may give way to its
 * process between windows. Why: secretlint drops duplicate
 * reports by comparing each with all the others, which grows with the square of their number,
 * and a text made of thousands of key ids (`AKIA…` repeated) took a second per 80 KB. A window
 * holds a bounded number of reports, so the cost stays in proportion to the text.
 */
const WINDOW = 8 * 1024;
const OVERLAP = 2 * 1024;

export interface SecretlintRules {
  /** Runs the named rules (short names) over the text; `between` is awaited between windows. */
  find(text: string, names: readonly string[], between?: () => Promise<void>): Promise<Finding[]>;
  /** Every rule of the preset, by short name. */
  readonly names: readonly string[];
}

let loading: Promise<SecretlintRules> | undefined;

/**
 * The preset, loaded on first use: it is an ES module of about 200 KB that takes some 60 ms to
 * load, which a hook process pays only when a text calls for it.
 */
export function loadSecretlint(): Promise<SecretlintRules> {
  loading ??= (async () => {
    const [{ lintSource }, { rules }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
    ]);
    const descriptors = new Map<string, Descriptor>();
    for (const rule of rules) {
      const name = shortRuleName(rule.meta.id);
      if (!SECRETLINT_SKIPPED.has(name)) {
        descriptors.set(name, { id: rule.meta.id, rule, ...RULE_SETTINGS[name] } as Descriptor);
      }
    }
    return {
      names: [...descriptors.keys()],
      async find(text, names, between) {
        const selected = names.map((n) => descriptors.get(n)).filter((d): d is Descriptor => d !== undefined);
        if (selected.length === 0) return [];
        const reports: Reported[] = [];
        for (let offset = 0; offset < text.length; offset += WINDOW) {
          const window = text.length <= WINDOW + OVERLAP ? text : text.slice(offset, offset + WINDOW + OVERLAP);
          const result = await lintSource({
            source: { content: window, filePath: 'event.txt', ext: '.txt', contentType: 'text' },
            options: { config: { rules: selected }, noPhysicFilePath: true },
          });
          for (const m of result.messages) {
            const [start, end] = spanOf(window, m);
            const url = SECRETLINT_URL_RULES.has(shortRuleName(m.ruleId));
            reports.push({ start: start + offset, end: end + offset, kind: kindOf(m), url });
          }
          if (offset + window.length >= text.length) break;
          await between?.();
        }
        return inOrder(reports);
      },
    };
  })();
  return loading;
}
