import type { EngineEvent } from '../candidate';
import { humanText, isCommandMessage } from '@memex/entities';
import { printsFailure } from './event-signals';
import { significantWords } from '../text';
import { withoutMemoryTags } from './markers';

/**
 * A turn of a Claude Code session: the person's prompt, the work it started, and the
 * assistant's closing message (its last text before the next prompt), which is where a
 * session states what it found, changed and left open.
 */
export interface Turn {
  prompt?: { event: EngineEvent; text: string };
  /** Everything after the prompt until the next one. */
  events: EngineEvent[];
  /** The prompt was in this window (not only in the context read before it). */
  promptInWindow: boolean;
  /** Some of the turn is in this window: it is this window's to extract. */
  inWindow: boolean;
  /**
   * The turn has ended: a later prompt follows, the window stops on text, not mid-work, or the
   * session ended where the window ends.
   */
  closed: boolean;
}

/**
 * The person's answer naming one of the options the assistant laid out: "1", "A", "option 2",
 * "B please", "ok let's do 1 and create a PR", "go with option B".
 */
export const OPTION_PICK =
  /^\s*(?:(?:ok(?:ay)?|yes|yeah|sure|alright)[,.!]?\s+)?(?:(?:let'?s|we'?ll|i'?ll)\s+(?:do|go with|take|pick|try)\s+|(?:go with|pick|choose)\s+)?(?:option\s+)?([1-9]|[A-Ea-e])(?:\s*[.):,-](?![\w.])|\s+(?:please|pls|it is|then|—|-)\b|(?<=\d)\s+and\b(?!\s+(?:option\s+)?[1-9A-Ea-e]\b)|\s*$)/i;

/**
 * A prompt a person wrote: harness wrappers and one-word replies ("yes", "go on") start no
 * turn, they let the work go on; picking an option ("A") is a turn of its own.
 */
function promptText(event: EngineEvent): string {
  if (event.type !== 'prompt') return '';
  const text = humanText(event.content);
  return text.length >= 12 || OPTION_PICK.test(text) ? text : '';
}

const WORK_TYPES = new Set(['tool_call', 'tool_result', 'command', 'file_edit', 'error']);

/**
 * Turns over the context (events of the current turn read before the window, for reading
 * only) and the window. A turn wholly in the context was extracted by an earlier window; it
 * comes first, out of the window, when the window opens with a prompt (its closing message
 * may hold the options that prompt answers).
 */
export function turnsOf(context: readonly EngineEvent[], window: readonly EngineEvent[], ended = false): Turn[] {
  const inWindow = new Set(window);
  const turns: Turn[] = [];
  let current: Turn = { events: [], promptInWindow: false, inWindow: false, closed: false };
  // A slash command's expanded body follows its command message as a prompt nobody typed: at
  // once (Claude Code writes both in the same instant) or as a markdown document. What the
  // person types after a built-in command (`/clear`) comes later and is theirs.
  let command: EngineEvent | undefined;
  for (const event of [...context, ...window]) {
    const body =
      command !== undefined &&
      event.type === 'prompt' &&
      humanText(event.content) !== '' &&
      (event.timestamp.getTime() - command.timestamp.getTime() < 1000 || /^\s*#/.test(event.content));
    command = event.type === 'prompt' && isCommandMessage(event.content) ? event : undefined;
    const text = body ? '' : promptText(event);
    if (text) {
      current.closed = true;
      turns.push(current);
      current = {
        prompt: { event, text },
        events: [],
        promptInWindow: inWindow.has(event),
        inWindow: inWindow.has(event),
        closed: false,
      };
    } else {
      current.events.push(event);
      if (inWindow.has(event)) current.inWindow = true;
    }
  }
  const last = window[window.length - 1];
  // Mid-work, more of the turn may come; once the session has ended there, none will.
  current.closed = last !== undefined && (ended || !WORK_TYPES.has(last.type));
  // The session ended with nothing new after a window that left its last turn open: that turn is
  // this (empty) window's to read. A turn that closed on text was read when it closed.
  const tail = context[context.length - 1];
  if (window.length === 0 && ended && tail !== undefined && WORK_TYPES.has(tail.type)) {
    current.inWindow = true;
    current.closed = true;
  }
  turns.push(current);
  const kept = turns.filter((t) => t.prompt || t.events.length > 0);
  const first = kept.findIndex((t) => t.inWindow);
  return first < 0 ? [] : kept.slice(Math.max(0, first - 1));
}

/** The assistant's texts of a turn, harness text and `[MEMORY: …]` tags removed, in order. */
export function assistantTexts(turn: Turn): Array<{ event: EngineEvent; text: string }> {
  return turn.events.flatMap((event) => {
    if (event.type !== 'response') return [];
    const text = withoutMemoryTags(humanText(event.content));
    return text ? [{ event, text }] : [];
  });
}

/** The turn's closing message: the last substantial text the assistant wrote in it. */
export function closingMessage(turn: Turn): { event: EngineEvent; text: string } | undefined {
  const texts = assistantTexts(turn);
  for (let i = texts.length - 1; i >= 0; i -= 1) if (texts[i]!.text.length >= 30) return texts[i];
  return undefined;
}

/**
 * Of the events read before a window, those of the turn the window continues: from the last
 * prompt a person wrote. With no prompt among them, the turn began earlier still and all of
 * them belong to it.
 */
export function currentTurn(before: readonly EngineEvent[]): EngineEvent[] {
  for (let i = before.length - 1; i >= 0; i -= 1) if (promptText(before[i]!)) return before.slice(i);
  return [...before];
}

/** The words a prompt may open with before it says anything: "ok. uh.", "hmm,", "ah.". */
const OPENERS = String.raw`(?:(?:ok(?:ay)?|uh+|um+|hm+|ah+|well|wait)[.,!]*\s+)*`;

/** The person saying the last answer was wrong: "ok. uh. no.", "that didn't work", "still failing". */
const REJECTS = new RegExp(
  String.raw`^${OPENERS}(?:wrong|not quite|that(?:'s| is) (?:not|wrong)|(?:that |it )?(?:didn'?t|doesn'?t) (?:work|fix|help)|(?:that |it )?(?:wasn'?t|isn'?t) it|same (?:error|problem|issue|thing)|not fixed|still (?:not|broken|failing|fails|the same|doesn'?t|getting|seeing|happening))\b`,
  'i',
);

/**
 * The assistant taking back what it concluded a turn before: "that wasn't it", "the real cause
 * is …", "my earlier diagnosis was wrong", "turns out it wasn't …". What it said before is not
 * knowledge, even when the person never said no.
 */
const RETRACTS =
  /\b(?:(?:that|this) (?:wasn'?t|was not|isn'?t|is not) (?:it|the (?:real |actual )?(?:cause|issue|problem|fix))|the (?:real|actual) (?:root )?(?:cause|issue|problem|culprit) (?:is|was)|(?:my|the) (?:earlier|previous|first|initial) (?:diagnosis|guess|explanation|theory|assumption|fix|analysis) was (?:wrong|incorrect|mistaken|off)|i was wrong|turns out (?:it|that|this|the (?:issue|problem|cause)) (?:wasn'?t|was not|isn'?t)|(?:wasn'?t|was not) (?:actually )?the (?:cause|issue|problem))\b/i;
/** A bare "no": a rejection, unless it answers a question ("no need", "no thanks"). */
const SAYS_NO = new RegExp(
  String.raw`^${OPENERS}(?:no|nope|nah)\b(?![,\s]*(?:no\s+)?(?:need|worries|problem|thanks|thank you|rush)\b)`,
  'i',
);
/** A closing message that ends by asking or offering: a "no" after it answers that. */
const ASKS = /\?\s*$|\b(?:let me know|want me to|would you like|shall i|should i|if you(?:'d)? like)\b[^\n]*$/i;

/**
 * The person disputing what was concluded, past the words a prompt opens with: "hmm no i haven't
 * ordered the blocks so that's wrong", "but that alone should not lead to flaky tests", "this is
 * not what I wanted".
 */
const DISPUTES = new RegExp(
  // Not when the words around it doubt, suppose or agree: "I don't think that's wrong", "if
  // that's wrong we revert", "good, so that's not the cause …".
  String.raw`^(?![^.?!\n]{0,80}\b(?:if|unless|whether|not sure|don'?t think|doubt)\b)(?!(?:good|great|right|yes|yep|yeah|exactly|agreed|correct)\b)` +
    // "that's wrong" at the start, or after the person's own account ("… so that's wrong"), not
    // said of something else ("the README says 3000, that's wrong too").
    String.raw`(?:(?:[^.?!\n]{0,80}\b(?:so|and|because|but|no)[,]?\s+)?that(?:'s| is) (?:wrong|not (?:right|true|it|the (?:cause|issue|problem|reason)))\b(?! too| either| as well)` +
    // "this is not what I wanted": the work itself turned down, not a claim about it; not "… what
    // I wanted to ask", nor "not what I asked for but it is even better".
    String.raw`|(?:[^.?!\n]{0,80}\b(?:so|and|because|but|no)[,]?\s+)?(?:this|that|it)(?:(?:'s|’s| is) not| isn['’]?t) what (?:i|we) (?:wanted|want|asked for|meant|need(?:ed)?)\b(?! to\b)(?![^.?!\n]*\bbut\b[^.?!\n]*\b(?:better|fine|like|love|good|great|perfect|works?)\b)` +
    // "but that alone should not lead to flaky tests": a claim that it cannot be the cause.
    String.raw`|but (?:that|this|it)\b[^.?!\n]{0,40}\b(?:should(?:n'?t| not)|can(?:'?t|not)|does(?:n'?t| not)|would(?:n'?t| not)|won'?t)\s+(?:\w+\s+)?(?:cause|lead|explain|produce|result|make|trigger|break)\b)`,
  'i',
);

/** A closing message that hands the fix back to be tried: "This should work now", "Try running again". */
const TRY_AGAIN =
  /\b(?:should (?:now )?(?:work|fix (?:it|this|that)|build|pass|run|succeed)(?: now)?|try (?:running |it |that )?again|give it another (?:try|go|run)|(?:re-?run|run) (?:it |that )?again)\b/i;
/**
 * The person saying it worked, in the words they open with (pasted output below may well say
 * "did not complete successfully").
 */
const WORKED =
  /^[^\n]{0,80}\b(?:works? now|worked|it works|passe[sd]|all (?:tests|checks) pass|succe(?:eded|ssful(?:ly)?)|thanks?)\b/i;

/**
 * The person answering "this should work now" with the failure itself: the same command's
 * output pasted back, failing (two lines or more, a failure as tools print one (`printsFailure`), no word that it
 * worked). Sessions say "that didn't work" this way more often than in words.
 */
function pastesFailure(prompt: string, closing: string): boolean {
  const lines = prompt.split('\n').filter((l) => l.trim()).length;
  return TRY_AGAIN.test(closing) && lines >= 2 && printsFailure(prompt) && !WORKED.test(prompt);
}

/**
 * "ah. the issue is the linter/formatter, not db:generate": the person naming a cause against
 * the one concluded. It disputes the closing message only when what it denies is what the
 * closing said and what it names instead is not: "ok the problem was the stale cache, not the
 * code" agrees with a closing that blamed the stale cache, and "the bug is in the parser, not
 * the lexer" after a closing about something else starts a new task.
 */
const ANOTHER_CAUSE = new RegExp(
  // "oh, the issue …", "no, the issue …": said before a cause named, they are no exclamation of their own.
  String.raw`^${OPENERS}(?:(?:oh|no|nope)[.,!]*\s+)?the (?:real |actual |root )?(?:issues?|problems?|causes?|culprits?|bugs?)(?:['’]s| is| was| are| were) ` +
    String.raw`((?:[^.?!\n;]|\.(?=\S)){1,80}?),? not (?!only\b|just\b|sure\b)((?:[^.?!\n;,]|\.(?=\S)){1,60})`,
  'i',
);

function namesAnotherCause(prompt: string, closing: string): boolean {
  const named = ANOTHER_CAUSE.exec(prompt.trim());
  if (!named) return false;
  const said = new Set(significantWords(closing));
  const share = (text: string) => {
    const words = significantWords(text);
    return words.length === 0 ? 0 : words.filter((w) => said.has(w)).length / words.length;
  };
  // A word the two share ("ci", "config") does not make the named cause the closing's own.
  return share(named[2]!) > 0 && share(named[1]!) < 0.5;
}

function rejects(prompt: string, closing: string): boolean {
  return (
    REJECTS.test(prompt) ||
    DISPUTES.test(prompt.trim()) ||
    namesAnotherCause(prompt, closing) ||
    (SAYS_NO.test(prompt) && !ASKS.test(closing.trimEnd())) ||
    pastesFailure(prompt, closing)
  );
}

/**
 * Closing messages the person rejected in the prompt right after: what they concluded is not
 * knowledge, whichever window read it.
 */
export function rejectedClosings(turns: readonly Turn[]): Set<string> {
  const rejected = new Set<string>();
  turns.forEach((turn, i) => {
    if (i === 0 || !turn.inWindow) return;
    const closing = closingMessage(turns[i - 1]!);
    if (!closing) return;
    const byPerson = turn.prompt !== undefined && turn.promptInWindow && rejects(turn.prompt.text, closing.text);
    // Only where the turn opens: "the real cause is …" later on may be about something else.
    const opening = assistantTexts(turn)[0];
    const byAssistant = opening !== undefined && RETRACTS.test(opening.text);
    if (byPerson || byAssistant) rejected.add(closing.event.eventId);
  });
  return rejected;
}
