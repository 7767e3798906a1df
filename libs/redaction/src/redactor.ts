import { NOTHING, addCounts, mergeOverlapsOfAKind, type Finding, type Redacted, type RedactionCounts } from './finding';
import { applyFindings, placeholder } from './placeholder';
import { GATE, secretGates } from './prefilter';
import { assignments, fieldSecretKind } from './rules/assignments';
import { commandLines } from './rules/command-lines';
import { awsKeyPairs, statedSecrets } from './rules/prose';
import type { TextRule } from './rules/rule';
import { SECRETLINT_TRIGGERS, SECRETLINT_URL_RULES, loadSecretlint } from './rules/secretlint';
import { authorizationHeaders, pemBlocks, privateSpans, urlCredentials } from './rules/structural';
import { tokenFormats } from './rules/token-formats';
import { NO_SETTINGS, type ExtraPattern, type RedactionSettings } from './settings';

/** Before secretlint: spans a person marked and whole key blocks. */
const FIRST: readonly TextRule[] = [privateSpans, pemBlocks];
/**
 * After it: formats it lacks, URL passwords (after the formats, so a token used as one is
 * named by its format), then what only context reveals (headers, `.env` lines, assignments,
 * command-line flags, an AWS secret key beside its key id, secrets said in sentences). The
 * one list of the built-in rules, with FIRST; operators' patterns go in after the URLs.
 */
const LAST: readonly TextRule[] = [
  tokenFormats,
  urlCredentials,
  authorizationHeaders,
  assignments,
  commandLines,
  awsKeyPairs,
  statedSecrets,
];

const TOKEN_RULES = Object.entries(SECRETLINT_TRIGGERS).filter(([name]) => !SECRETLINT_URL_RULES.has(name));
const URL_RULES = Object.entries(SECRETLINT_TRIGGERS).filter(([name]) => SECRETLINT_URL_RULES.has(name));
/** Any of the token rules' triggers, in one scan: most texts with a long run hold no known prefix. */
const ANY_TOKEN_RULE = new RegExp(TOKEN_RULES.map(([, trigger]) => `(?:${trigger.source})`).join('|'));

function extraRule({ name, pattern }: ExtraPattern): TextRule {
  return {
    name,
    gates: ~0,
    trigger: new RegExp(pattern.source, pattern.flags.replace(/[gd]/g, '')),
    find(text) {
      const findings: Finding[] = [];
      for (const match of text.matchAll(pattern)) {
        const [start, end] = match.indices?.[1] ?? match.indices?.[0] ?? [match.index, match.index + match[0].length];
        findings.push({ start, end, kind: name });
      }
      return findings;
    },
  };
}

function countKinds(findings: readonly Finding[]): RedactionCounts {
  const counts: RedactionCounts = {};
  for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return counts;
}

/** The secretlint rules worth running on a text, by its gates and their triggers. */
function secretlintRulesFor(text: string, gates: number): string[] {
  const names: string[] = [];
  if (gates & (GATE.token | GATE.context) && ANY_TOKEN_RULE.test(text)) {
    for (const [name, trigger] of TOKEN_RULES) if (trigger.test(text)) names.push(name);
  }
  if (gates & GATE.url) for (const [name, trigger] of URL_RULES) if (trigger.test(text)) names.push(name);
  return names;
}

/**
 * How a redactor gives way to other work of its process (see RedactionSlice). A server
 * passes `() => new Promise((resolve) => setImmediate(resolve))`; a hook process, which has
 * nothing else to do, passes nothing.
 */
export interface Pacing {
  /** Resolves once the process has had its turn (timers, I/O, other requests). */
  pause: () => Promise<void>;
  /** How long redaction may run before it gives way, in milliseconds. */
  sliceMs: number;
  /** The clock, in milliseconds (performance.now unless a test gives its own). */
  now?: () => number;
}

/**
 * One caller's run of redaction (a batch, a text, a JSON value), which gives way once it has
 * itself run a slice since it started or last did. Its clock is its own: between its awaits
 * only microtasks run, so the time since its slice started is redaction's. A clock shared by
 * the process would count other requests' work (in embedded mode, the database's queries on
 * the same thread) and make every batch pause after it, which tripled ingest's CPU per event.
 */
export class RedactionSlice {
  private readonly now: () => number;
  private started: number;

  constructor(private readonly pacing?: Pacing) {
    this.now = pacing?.now ?? (() => performance.now());
    this.started = this.now();
  }

  /**
   * Gives way to the rest of the process (with the Pacing it was given) once this run has gone
   * on for a slice; otherwise returns at once. Called between texts: a text's redaction takes
   * time in proportion to its length (no rule backtracks), and ingest takes texts of at most
   * 100 KB, so a slice overruns by a few milliseconds at worst. Why slices and not a worker
   * thread: a worker would need a copy of every batch (5 MB at most) and of the operator's
   * patterns, its own secretlint and a life cycle of its own, while a batch of 48 texts of
   * 99,000 characters, redacted here in turns of sliceMs, lets `/health/live` and other
   * requests through between texts at the cost of a few context switches.
   */
  async breathe(): Promise<void> {
    if (!this.pacing || this.now() - this.started < this.pacing.sliceMs) return;
    await this.pacing.pause();
    this.started = this.now();
  }
}

/**
 * Finds secrets in text and replaces each with a typed placeholder (`[REDACTED:github-token]`),
 * so text stays readable and nothing secret is kept. Rules run in priority order (a span a
 * person marked private, PEM blocks, the secretlint recommended preset, other known formats,
 * URL passwords, operators' own patterns, authorization headers, `.env` lines and high-entropy
 * assignments); where two find overlapping text, the earlier one wins. Redacting a redacted
 * text changes nothing.
 *
 * Cheap where it matters: one pass over the text's characters (secretGates) says which rules
 * could find anything at all; most texts stop there, and the rest meet only those rules.
 */
export class Redactor {
  private readonly last: readonly TextRule[];
  private readonly extra: readonly TextRule[];
  private readonly allowed: (secret: string) => boolean;
  constructor(
    settings: RedactionSettings = NO_SETTINGS,
    private readonly pacing?: Pacing,
  ) {
    this.extra = settings.extraPatterns.map(extraRule);
    // Operators' patterns name what they find, before the generic rules would.
    this.last = [...LAST.slice(0, 2), ...this.extra, ...LAST.slice(2)];
    const allow = settings.allow;
    this.allowed = allow.length === 0 ? () => false : (secret) => allow.some((p) => p.test(secret));
  }

  /** Loads the secretlint preset now, so the first text that needs it waits for nothing. */
  async warm(): Promise<void> {
    await loadSecretlint();
  }

  /** A run of redaction of its own, for a caller that redacts several texts in turn (a batch). */
  slice(): RedactionSlice {
    return new RedactionSlice(this.pacing);
  }

  text(text: string, slice = this.slice()): Promise<Redacted<string>> {
    return this.redactText(text, this.gates(text), slice);
  }

  private async redactText(text: string, gates: number, slice: RedactionSlice): Promise<Redacted<string>> {
    const findings = await this.findings(text, gates, slice);
    await slice.breathe();
    if (findings.length === 0) return { value: text, counts: NOTHING };
    const { text: value, applied } = applyFindings(text, findings, this.allowed);
    return { value, counts: applied.length ? countKinds(applied) : NOTHING };
  }

  /** Which rules could find anything in the text (see secretGates); operators' patterns open every gate. */
  private gates(text: string): number {
    return secretGates(text) | (this.extra.some((r) => r.trigger.test(text)) ? ~0 : 0);
  }

  /** What the rules find, in priority order, before overlaps, placeholders and the allow list are applied. */
  async findings(text: string, gates = this.gates(text), slice = this.slice()): Promise<Finding[]> {
    if (gates === 0) return [];
    const findings: Finding[] = [];
    const run = (rules: readonly TextRule[]) => {
      for (const rule of rules) if (gates & rule.gates && rule.trigger.test(text)) findings.push(...rule.find(text));
    };
    run(FIRST);
    const names = secretlintRulesFor(text, gates);
    if (names.length > 0) {
      findings.push(...(await (await loadSecretlint()).find(text, names, () => slice.breathe())));
    }
    run(this.last);
    return mergeOverlapsOfAKind(findings);
  }

  /**
   * A JSON value with every string redacted (object keys too), and a string under a key that
   * names a secret (`"password": "…"`) replaced whole. Unchanged parts are returned as they were.
   */
  async value<T>(value: T, slice = this.slice()): Promise<Redacted<T>> {
    if (!this.mayChange(value)) return { value, counts: NOTHING };
    const counts: RedactionCounts = {};
    const redacted = (await this.walk(value, undefined, counts, slice)) as T;
    return { value: redacted, counts };
  }

  /**
   * Whether redacting could change the value (a string some rule must look at, or a field named
   * like a secret), found without waiting: most values hold nothing and need no promise.
   */
  mayChange(value: unknown, key?: string): boolean {
    if (typeof value === 'string') {
      return (key !== undefined && fieldSecretKind(key, value) !== undefined) || this.gates(value) !== 0;
    }
    if (value === null || typeof value !== 'object') return false;
    if (Array.isArray(value)) return value.some((item) => this.mayChange(item, key));
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    const record = value as Record<string, unknown>;
    for (const k of Object.keys(record)) if (this.gates(k) !== 0 || this.mayChange(record[k], k)) return true;
    return false;
  }

  private async walk(
    value: unknown,
    key: string | undefined,
    counts: RedactionCounts,
    slice: RedactionSlice,
  ): Promise<unknown> {
    if (typeof value === 'string') {
      const kind = key === undefined ? undefined : fieldSecretKind(key, value);
      if (kind && !this.allowed(value)) {
        counts[kind] = (counts[kind] ?? 0) + 1;
        return placeholder(kind);
      }
      // Most strings of a JSON value are short and plain: no promise to wait for.
      const gates = this.gates(value);
      if (gates === 0) return value;
      const redacted = await this.redactText(value, gates, slice);
      addCounts(counts, redacted.counts);
      return redacted.value;
    }
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out: unknown[] = [];
      for (const item of value) {
        const next = await this.walk(item, key, counts, slice);
        changed ||= next !== item;
        out.push(next);
      }
      return changed ? out : value;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return value;
    let changed = false;
    const out: Array<[string, unknown]> = [];
    for (const [k, v] of Object.entries(value)) {
      const keyGates = this.gates(k);
      const name = keyGates === 0 ? { value: k, counts: NOTHING } : await this.redactText(k, keyGates, slice);
      addCounts(counts, name.counts);
      const next = await this.walk(v, k, counts, slice);
      changed ||= next !== v || name.value !== k;
      out.push([name.value, next]);
    }
    // fromEntries defines own properties: a "__proto__" key stays a key.
    return changed ? Object.fromEntries(out) : value;
  }
}
