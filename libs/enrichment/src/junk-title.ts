/**
 * Titles that are machine output rather than a note a teammate would write: shell output, log
 * and stack lines, progress meters, harness markers, heredocs and quoted code. Real cases from
 * the store before this rule: `Fix: (eval):1: parse error near '('`, `Fix: % Total % Received
 * % Xferd Average Speed`, `Fix: [Request interrupted by user for tool use]`, `Fix: >
 * scenario-testing-agent@0.1.0 build`, `$(cat <<'EOF'`.
 */
const JUNK_PATTERNS: RegExp[] = [
  // Boxes and banners drawn by CLIs (`│ 🥊 lefthook v1.12.3 hook: pre-commit │`).
  /[│┃┌┐└┘├┤┬┴┼━═╭╮╰╯]/,
  // Heredocs and command substitutions.
  /\$\(|<<-?\s*['"]?[A-Z]+['"]?/,
  // Claude Code's interruption and harness markers.
  /\[Request interrupted|<\/?(?:command-|local-command|bash-|system-reminder|tool_use_error)/i,
  // curl / wget / npm progress meters.
  /%\s*Total\b|\bXferd\b|\d+(?:\.\d+)?\s*[kKMG]i?B\/s\b|\[[=#>-]{3,}\s*\]|\d{1,3}%\s*\|/,
  // npm script banners and shell prompts: `> pkg@1.2.3 build`, `$ npm test`, `❯ sudo sysctl …`.
  /^>\s*\S+@\d|^[$#%❯]\s+\S/,
  // Shell and compiler diagnostics: `(eval):1:`, `zsh: …`, `src/a.ts:12:5 - error`, `  File "x.py", line 3`.
  /^\(eval\):\d+|^(?:ba|z|fi)?sh:\s|^[\w./-]+:\d+(?::\d+)?\b|^\s*File "[^"]+", line \d+/,
  // Stack frames and log lines.
  /^\s*at\s+[\w$.<>]+\s*\(?[^)]*:\d+(?::\d+)?\)?$|^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|^\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE)\]?[\s:]/,
  // Log lines that lead with a timer or a level: `158.5 npm error …`, `npm ERR! …`.
  /^\d+\.\d+\s|^npm (?:error|ERR!)/,
  // Quoted code lines.
  /^(?:import|export|const|let|var|function|def|class|return|if|for|while|#include|package|use)\b[^.!?]*[;{}()=]\s*$/,
  /[;{]\s*$|^\s*[})\]]/,
];

/** Prefixes an engine puts before a title; the rest is what must read as prose. */
const LEAD = /^(?:fix|fixed|bug|todo|error|decision|convention|note)\s*:\s*/i;

export function isJunkTitle(title: string): boolean {
  const text = title.replace(LEAD, '').trim();
  if (JUNK_PATTERNS.some((p) => p.test(text))) return true;
  // A link or a quoted identifier is not a sentence: what stands around them must be one.
  // Letters of any script: a note in Korean is prose too.
  const words = text.replace(/https?:\/\/\S+/g, ' ').match(/\p{L}{2,}/gu) ?? [];
  if (words.length < 2) return true;
  // Prose is mostly letters and spaces; output and code are mostly symbols and digits.
  const letters = (text.match(/[\p{L}\s]/gu) ?? []).length;
  return letters / text.length < 0.6;
}
