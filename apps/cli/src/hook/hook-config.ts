import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RedactionEnv {
  REDACT_EXTRA_PATTERNS?: string;
  REDACT_ALLOW?: string;
}

export interface HookConfig {
  /** Milliseconds from process start the hook may use; Claude Code's assistant waits for it. */
  budgetMs: number;
  /** Token budget of the brain printed at SessionStart. */
  brainTokens: number;
  /** Token budget of the context pack printed at UserPromptSubmit; 0 turns it off. */
  contextTokens: number;
  /** Transcript offsets and the spool of unsent batches. */
  stateDir: string;
  /** MEMEX_HOOK_REFLECT=1: once a session, after real work, Stop asks the assistant to record what it learned. */
  reflect: boolean;
  /**
   * REDACT_EXTRA_PATTERNS and REDACT_ALLOW as the environment gives them, when it sets them as
   * the server's does; parsed (redactionSettings) only when there is something to redact, so a
   * hook with nothing new never loads the redaction rules.
   */
  redactionEnv: RedactionEnv;
  /** This process does the reading and sending a SessionStart handed over; it prints nothing. */
  inBackground: boolean;
}

/** Leaves room under 2 s for the hard stop and the process's own exit. */
export const MAX_BUDGET_MS = 1800;

function int(value: string | undefined, fallback: number, min: number, max: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/**
 * Defaults keep a hook inside 2 s and its output inside Claude Code's 10,000-character
 * context cap (about 2,500 tokens); out-of-range values are clamped, never fatal.
 */
export function hookConfig(env: NodeJS.ProcessEnv): HookConfig {
  const stateHome = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return {
    budgetMs: int(env.MEMEX_HOOK_BUDGET_MS, 1800, 200, MAX_BUDGET_MS),
    brainTokens: int(env.MEMEX_HOOK_BRAIN_TOKENS, 2000, 500, 2500),
    contextTokens: int(env.MEMEX_HOOK_CONTEXT_TOKENS, 600, 0, 2500),
    // Resolved once: a relative setting names the same place for every part of the hook.
    stateDir: env.MEMEX_HOOK_STATE_DIR ? resolve(env.MEMEX_HOOK_STATE_DIR) : join(stateHome, 'memex'),
    reflect: env.MEMEX_HOOK_REFLECT === '1',
    redactionEnv: { REDACT_EXTRA_PATTERNS: env.REDACT_EXTRA_PATTERNS, REDACT_ALLOW: env.REDACT_ALLOW },
    // Only the process a SessionStart starts does its work in the background (hook-main).
    inBackground: false,
  };
}
