/**
 * Text a person or the assistant wrote, with what the harness injected taken out: Claude
 * Code records slash-command wrappers, system reminders, IDE context and hook output in the
 * same messages (see shared/reference/claude_code_transcripts.md).
 */
const HARNESS_PREFIXES = [
  '<command-name>',
  '<command-message>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
  'Caveat: The messages below',
  '[Request interrupted',
  'This session is being continued from a previous conversation',
];

const HARNESS_BLOCKS =
  /<(system-reminder|ide_opened_file|ide_selection|user-prompt-submit-hook|memex-context)>[\s\S]*?<\/\1>/g;

export function humanText(content: string): string {
  const trimmed = content.trimStart();
  if (HARNESS_PREFIXES.some((p) => trimmed.startsWith(p))) return '';
  return content.replace(HARNESS_BLOCKS, ' ').trim();
}

/** Prose sentences: code blocks, quoted lines and tables are not statements of intent. */
export function sentences(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?(```|$)/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*(>|\||\s{4}|\t)/.test(line))
    .map((line) =>
      line
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/^#+\s+/, '')
        .trim(),
    )
    .filter((line) => line.length > 0);
  // People type in lower case; a sentence ends at . ! ? unless the word was an abbreviation.
  return prose
    .flatMap((line) =>
      line.split(/(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|no|ca)\.)(?<=[.!?])\s+(?=[A-Za-z"'`([*])/i),
    )
    .map((s) => s.trim());
}
