import { NO_SETTINGS, parseAllowList, parseExtraPatterns, type RedactionSettings } from '@memex/redaction';
import type { RedactionEnv } from './hook-config';

/**
 * The operator's redaction settings, as the server reads them. A hook never fails on its
 * settings: a variable that does not parse is ignored (the built-in rules still apply) and
 * said so, for the hook's line on stderr.
 */
export function redactionSettings(env: RedactionEnv): { redaction: RedactionSettings; problem?: string } {
  const problems: string[] = [];
  const parsed = <T>(name: keyof RedactionEnv, parse: (json: string) => T[]): T[] => {
    const raw = env[name];
    if (!raw) return [];
    try {
      return parse(raw);
    } catch (error) {
      problems.push(`${name} ignored (${(error as Error).message})`);
      return [];
    }
  };
  const redaction = {
    extraPatterns: parsed('REDACT_EXTRA_PATTERNS', parseExtraPatterns),
    allow: parsed('REDACT_ALLOW', parseAllowList),
  };
  const settings = redaction.extraPatterns.length || redaction.allow.length ? redaction : NO_SETTINGS;
  return { redaction: settings, ...(problems.length ? { problem: problems.join('; ') } : {}) };
}
