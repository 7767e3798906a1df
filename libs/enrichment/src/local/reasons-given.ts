/** A prompt that gives the reasons for what it asks, under a line saying they follow. */
export interface ReasonsGiven {
  /** What the prompt says before the reasons: the request they argue for. */
  request: string;
  /** Each reason, a list item with its wrapped lines (or the paragraph, when there is no list). */
  reasons: string[];
  /** What the prompt goes on to say after the reasons. */
  rest: string;
}

const WHY_WORD = String.raw`(?:\*\*)?(?:rationale|reasoning|reasons?|why|motivation)(?:\*\*)?`;
/**
 * A line that says the reasons for what came before follow: "rationale:", "**Why:**", "## Reasons".
 * A heading, or a label ending in a colon: a bare "why" on its own line asks, it does not lead.
 */
const REASONS_LEAD = new RegExp(
  String.raw`^[ \t]*(?:#{1,6}[ \t]*${WHY_WORD}[ \t]*:?|${WHY_WORD}[ \t]*:(?:\*\*)?)[ \t]*$`,
  'i',
);
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,2}[.)])\s+/;
const FENCE = /^\s*```/;
/** A line that heads the reasons ("The case for vamp"): short, with no sentence's end. */
const HEADING = /^[^.!?:;]{1,60}$/;

/**
 * "rename /whats-next to /vamp\nrationale:\n\n  The case for vamp\n\n  - Jazz-native: …": the
 * request, its reasons and what follows them. A lead inside a code block is code, not a lead.
 * The reasons end where their list does (a blank line, then a line that is no item) or, with no
 * list, with their paragraph.
 */
export function reasonsGiven(prompt: string): ReasonsGiven | undefined {
  const lines = prompt.split('\n');
  let inFence = false;
  const lead = lines.findIndex((line) => {
    if (FENCE.test(line)) inFence = !inFence;
    return !inFence && REASONS_LEAD.test(line);
  });
  if (lead <= 0) return undefined;
  const request = lines.slice(0, lead).join('\n').trim();
  if (!request) return undefined;

  const hasList = lines.slice(lead + 1).some((l) => LIST_ITEM.test(l));
  const reasons: string[] = [];
  let n = lead + 1;
  let inList = false;
  let blank = false;
  for (; n < lines.length; n += 1) {
    const line = lines[n]!.trim();
    if (!line) {
      blank = true;
      // With no list, the reasons are the first paragraph.
      if (!hasList && reasons.length > 0) break;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      reasons.push(line.replace(LIST_ITEM, ''));
      inList = true;
    } else if (inList) {
      // A wrapped line goes on with its item; after a blank line, a line that is no item ends the list.
      if (blank) break;
      reasons[reasons.length - 1] += ` ${line}`;
    } else if (!(hasList && HEADING.test(line))) {
      if (hasList) reasons.push(line);
      else if (reasons.length > 0 && !blank) reasons[reasons.length - 1] += ` ${line}`;
      else reasons.push(line);
    }
    blank = false;
  }
  if (reasons.length === 0) return undefined;
  return { request, reasons, rest: lines.slice(n).join('\n').trim() };
}
