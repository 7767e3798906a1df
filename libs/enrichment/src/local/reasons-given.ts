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
 * The reasons are a list when the first line under the lead (past a line heading them) is an
 * item, and end where it does: at a line that is no item and does not go on with one (a wrapped
 * line starts in lower case, after an item that has not ended its sentence). Otherwise they are
 * the paragraph under the lead.
 */
export function reasonsGiven(prompt: string): ReasonsGiven | undefined {
  const lines = prompt.split(/\r?\n/);
  let inFence = false;
  const lead = lines.findIndex((line) => {
    if (FENCE.test(line)) inFence = !inFence;
    return !inFence && REASONS_LEAD.test(line);
  });
  if (lead <= 0) return undefined;
  const request = lines.slice(0, lead).join('\n').trim();
  if (!request) return undefined;

  const content = lines.slice(lead + 1).map((l, k) => ({ text: l.trim(), at: lead + 1 + k }));
  const filled = content.filter((l) => l.text);
  const first = filled[0];
  const afterHeading = first && HEADING.test(first.text) && !LIST_ITEM.test(first.text) ? filled[1] : undefined;
  const list = first && (LIST_ITEM.test(first.text) || (afterHeading && LIST_ITEM.test(afterHeading.text)));
  const reasons: string[] = [];
  let end = lines.length;
  if (list) {
    const start = LIST_ITEM.test(first.text) ? first.at : afterHeading!.at;
    for (const { text, at } of content.filter((l) => l.at >= start && l.text)) {
      const last = reasons[reasons.length - 1];
      if (LIST_ITEM.test(text)) reasons.push(text.replace(LIST_ITEM, ''));
      else if (last !== undefined && !/[.!?]$/.test(last) && /^[a-z0-9`(]/.test(text) && lines[at - 1]!.trim())
        reasons[reasons.length - 1] = `${last} ${text}`;
      else {
        end = at;
        break;
      }
    }
  } else if (first) {
    const blank = content.find((l) => l.at > first.at && !l.text);
    end = blank ? blank.at : lines.length;
    reasons.push(
      content
        .filter((l) => l.at >= first.at && l.at < end)
        .map((l) => l.text)
        .join(' '),
    );
  }
  if (reasons.length === 0) return undefined;
  return { request, reasons, rest: lines.slice(end).join('\n').trim() };
}
