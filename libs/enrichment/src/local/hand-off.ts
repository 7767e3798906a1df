import type { EngineEvent, ExistingHint } from '../candidate';
import { normalizeWhitespace, pathsIn } from '../text';
import { MIN_SALIENCE, propose, type Proposal } from './proposal';
import { editedFile } from './event-signals';
import { isChatter } from './salience';
import { turnLines } from './turn-lines';
import { closingMessage, type Turn } from './turns';

/**
 * What a turn's closing message leaves to be done when nothing follows it: an offer to do one
 * more thing ("Want me to also set `gc.auto 0` on your repo now?") or a step handed to the
 * person ("Run `sudo sysctl -w kern.tty.ptmx_max=999` to verify the ceiling", "Needs an
 * on-device rebuild"). At a session's end nobody answered it, and the next session should
 * know it is still open. The same words in a turn that a reply follows are answered: the
 * offer was taken up or turned down, and the step was the person's to take then.
 */
export interface HandOff {
  /** The offer or the step, as the message says it: the evidence. */
  quote: string;
  /** The same, a command block written inline: what the title says. */
  said: string;
  /** Its paragraph, from the offer or step on: what a teammate reads. */
  text: string;
  offer: boolean;
  event: EngineEvent;
  /** What the turn came to, and the files it changed: what the hand-off is about. */
  about: { text: string; files: string[] };
}

/** An offer to do something to the project, not to explain or look: that is no work left. */
const OFFER =
  /\b(?:want me to|would you like me to|do you want me to|shall i|should i)\s+(?:also\s+|now\s+|go ahead and\s+)?(?:copy|commit|push|set|add|create|open|file|run|deploy|merge|move|delete|remove|update|write|apply|install|release|publish|rename|revert|clean|tag|bump|rebase|change|enable|disable|configure|raise|rerun|re-run|restart|wire|hook)\b[^?]*\?/i;
/**
 * A step the message hands to the person: an imperative that opens a sentence ("Run …",
 * "Then restart …"), or work it says is theirs or still needed ("ready for you to commit",
 * "Needs an on-device rebuild").
 */
const STEP =
  /^(?:then,?\s+)?(?:run|rerun|re-run|restart|reboot|rebuild|redeploy|deploy|merge|refile|re-file)\b|\b(?:ready for you to|left (?:for|to) you|up to you to|you(?:'ll| will) (?:need|have) to|you need to)\b|^(?:it |this |that )?needs? (?:an? |to be )?(?:[\w-]+ )?(?:rebuild|restart|reboot|redeploy|deploy|switch|release|review|merge)\b/i;

/** A closing message's paragraphs: a command block is one of its own (one without blank lines). */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function sentences(paragraph: string): string[] {
  return paragraph.split(/(?<=[.!?])\s+(?=[A-Z`(\p{Lu}])/u);
}

const FENCE = /^```/;
/** How much of what the turn came to a hand-off carries: enough to say what "the changes" are. */
const ABOUT_CHARS = 240;
/** What carries a step on in the paragraphs after it: its command, or the next step. */
const GOES_ON = /^(?:```|(?:and )?then\b|after (?:that|it)\b|once\b)/i;

/** The offer or step the turn's closing message ends on, if nobody answered it. */
export function handOff(turn: Turn): HandOff | undefined {
  const closing = closingMessage(turn);
  if (!closing) return undefined;
  // A short reply ("yes please") starts no turn of its own, but it answers all the same.
  const after = turn.events.slice(turn.events.indexOf(closing.event) + 1);
  if (after.some((e) => e.type === 'prompt')) return undefined;
  const parts = paragraphs(closing.text);
  const last = parts[parts.length - 1];
  if (last === undefined) return undefined;
  const about = (handed: string) => headline(turn, closing.event, handed);
  // An offer asks last: nothing but more of the question may follow it.
  if (/\?\s*$/.test(last)) {
    const said = sentences(last);
    const at = said.findIndex((s) => OFFER.test(s));
    if (at >= 0) {
      const text = normalizeWhitespace(said.slice(at).join(' '));
      return { quote: text, said: text, text, offer: true, event: closing.event, about: about(text) };
    }
  }
  // A step may come with its command in a block of its own and the next step after it.
  for (let i = Math.max(0, parts.length - 3); i < parts.length; i += 1) {
    const own = sentences(parts[i]!);
    const found = own.findIndex((s) => STEP.test(s.trim()));
    if (found < 0) continue;
    let said = own.slice(found).join(' ');
    // "Then restart Claude Code" is the second step: the first is the block and sentence before it.
    if (/^then\b/i.test(said)) {
      let j = i - 1;
      while (j > 0 && FENCE.test(parts[j]!)) j -= 1;
      if (j >= 0) said = [sentences(parts[j]!).pop()!, ...parts.slice(j + 1, i), said].join(' ');
    }
    const rest: string[] = [];
    for (const part of parts.slice(i + 1)) {
      if (!GOES_ON.test(part)) break;
      rest.push(part);
    }
    return {
      quote: normalizeWhitespace(said),
      said: inline(said),
      text: inline([said, ...rest].join('\n\n')),
      offer: false,
      event: closing.event,
      about: about(closing.text.slice(closing.text.indexOf(parts[i]!))),
    };
  }
  return undefined;
}

/** A command block as inline code, one line: a note is read as a line, not a document. */
function inline(text: string): string {
  return normalizeWhitespace(
    text.replace(
      /```[\w-]*[ \t]*\n([\s\S]*?)\n?```/g,
      (_, code: string) =>
        `\`${code
          .trim()
          .split(/\s*\n\s*/)
          .join('; ')}\``,
    ),
  );
}

/**
 * What the turn came to, which the hand-off points at ("the changes", "it"): the first
 * headline of its closing message that says something of its own.
 */
function headline(turn: Turn, closing: EngineEvent, handed: string): { text: string; files: string[] } {
  const lines = turnLines(turn).filter(
    (l) =>
      l.event === closing &&
      !isChatter(l.text) &&
      !OFFER.test(l.text) &&
      !STEP.test(l.text) &&
      !normalizeWhitespace(handed).includes(normalizeWhitespace(l.text)),
  );
  // Its headline, or where there is none (a list it leads into), its first point.
  const line = lines.find((l) => l.headline) ?? lines[0];
  const files = [...new Set(turn.events.map(editedFile).filter((f): f is string => f !== undefined))];
  // Its first sentence or the lead into its list, whole: a cut one says less than none.
  const first = line?.text.split(/(?<=[.!?:])\s+/)[0]?.replace(/:$/, '.') ?? '';
  const text = first.length <= ABOUT_CHARS ? first.charAt(0).toUpperCase() + first.slice(1) : '';
  return { text, files };
}

/**
 * The Todo a hand-off leaves: open when the window ends on it, resolved when a reply follows
 * (the item an earlier window made of it, which only a hint names, is closed by the same hint).
 */
export function handOffTodo(found: HandOff, resolved: boolean): Proposal {
  // The least a kept proposal is worth: most offers are answered a turn later, and in a session
  // at its cap (ENRICHMENT_SESSION_ITEMS) one worth more would archive a held note for good.
  return propose(MIN_SALIENCE, 'Todo', {
    // Its first sentence: the title of a long step would otherwise stop mid-sentence.
    title: `${found.offer ? 'Offered at the end, not taken up' : 'Left to the person at the end'}: ${sentences(found.said)[0]}`,
    facts: found.about.text ? `${found.text} Done before it: ${found.about.text}` : found.text,
    about: found.said,
    files: [...found.about.files, ...pathsIn(found.text)],
    confidence: 0.6,
    resolved,
    evidence: [{ eventId: found.event.eventId, quote: found.quote }],
  });
}

/**
 * The window's hand-offs: the one its last turn ends on, open, and the one the events before
 * the window ended on, resolved, since the window goes on past it (a reply, or more work of the
 * same turn). Only when a held Todo says it (an earlier window ended there), so an answered
 * offer never becomes an item of its own.
 */
export function handOffs(
  turns: readonly Turn[],
  window: readonly EngineEvent[],
  hints: readonly ExistingHint[],
): Proposal[] {
  const out: Proposal[] = [];
  const last = turns[turns.length - 1];
  if (last?.inWindow && last.closed) {
    const found = handOff(last);
    if (found) out.push(handOffTodo(found, false));
  }
  const first = turns[0];
  const inWindow = new Set(window);
  const read = first && { ...first, events: first.events.filter((e) => !inWindow.has(e)) };
  const found = read && read.events.length > 0 ? handOff(read) : undefined;
  if (found) {
    const answered = handOffTodo(found, true);
    const title = answered.candidate.title.toLowerCase();
    if (hints.some((h) => h.type === 'Todo' && h.title.toLowerCase() === title)) out.push(answered);
  }
  return out;
}
