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
  return prose.flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z"'`([*])/)).map((s) => s.trim());
}

/** A statement of a message: one sentence, or a heading line with the list it introduces. */
export interface Point {
  /** Verbatim from the message (a sentence, or the heading line), for evidence. */
  quote: string;
  /** What it says: the sentence, or the heading followed by its list items. */
  text: string;
}

const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+/;

/**
 * The points of a message. Closing messages are mostly lists ("Fixed 17 type errors in
 * converter.py by:" and three bullets); a heading with its list is one point, because its
 * items alone ("Using `cast()` for JSON parsing") say nothing without it.
 */
export function points(text: string): Point[] {
  const lines = text.replace(/```[\s\S]*?(```|$)/g, '\n').split('\n');
  const out: Point[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const head = line
      .replace(LIST_ITEM, '')
      .replace(/^#+\s+/, '')
      .trim();
    if (head.endsWith(':') && i + 1 < lines.length) {
      const items: string[] = [];
      let j = i + 1;
      while (j < lines.length && (LIST_ITEM.test(lines[j]!) || (!lines[j]!.trim() && items.length === 0))) {
        if (lines[j]!.trim()) items.push(lines[j]!.replace(LIST_ITEM, '').trim());
        j += 1;
      }
      if (items.length > 0) {
        out.push({ quote: head, text: `${head} ${items.join('; ')}` });
        i = j - 1;
        continue;
      }
    }
    for (const sentence of sentences(line)) out.push({ quote: sentence, text: sentence });
  }
  return out;
}
