import type { ItemType } from '@memex/domain';
import { isJunkTitle } from '../junk-title';
import { normalizeWhitespace, pathsIn, significantWords } from '../text';
import { sentences } from '@memex/entities';
import { messagePoints } from './message-points';
import { propose, type Proposal } from './proposal';
import { cleanSentence, hasCue, isChatter } from './salience';
import { titleAndRest } from './turn-notes';
import { turnLines, type Line } from './turn-lines';
import { OPTION_PICK, assistantTexts, closingMessage, type Turn } from './turns';

/**
 * Choices a session makes in dialogue rather than in a statement: the person picks one of the
 * options the assistant laid out ("1. this has happened twice now"), or puts forward a view
 * the assistant then confirms ("i think the executor and the oracle need to be the same
 * agent?" / "You're not wrong …"). Neither says "decided"; both are what the next session
 * must not undo.
 */

/** An option as the assistant lays it out: "1. **Reset the index** …", "**A) Start with …**", "Option B: …". */
const OPTION = /^(?:\*\*)?(?:option\s+)?([1-9]|[A-E])[.):](?:\*\*)?\s+(.*)$/i;
/** The assistant agreeing with what the person put forward, in words that cannot mean anything else. */
const AGREES =
  /^(?:oh,?\s+|ah,?\s+)?(?:you'?re (?:absolutely |completely |totally )?(?:right|correct)|you'?re not wrong|you are (?:right|correct)|good (?:call|point|catch)|agreed|exactly|that'?s (?:right|correct|a good point))\b/i;
/** A one-word answer: "yes" agrees with a view, "no" only with one put negatively ("we don't need X?" / "No, …"). */
const ANSWERS = /^(?:oh,?\s+|ah,?\s+)?(?:(yes|yep|yeah|correct|right|indeed)|(no|nope))\s*[,.!—–-]/i;
const NEGATIVE = /\b(?:not|no|never|don'?t|doesn'?t|isn'?t|aren'?t|shouldn'?t|won'?t|can'?t)\b/i;
/** Asked to do something, not putting a view forward: "can you …", "please …", "let's …". */
const REQUEST = /^(?:(?:can|could|would|will) you|please|let'?s|go ahead|now)\b|\bplease\b/i;
/** A view put forward, not a request: what the person thinks is so, or should be. */
const VIEW =
  /\b(?:i (?:don'?t )?think|i believe|i feel|i suspect|i guess|maybe|probably|seems|feels|should(?:n'?t)?|need to be|the (?:issue|problem|bug|cause) is|it'?s (?:the|not)|isn'?t (?:it|that)|not \w+,? (?:but|it'?s))\b|, not\b/i;

interface Option {
  quote: string;
  text: string;
  /** The list it stands in, or the lettered lines: its alternatives are the others of the same group. */
  group: string;
}

/** A list offered as a choice: its lead or the message's last words ask which. */
const OFFERS_CHOICE =
  /\?\s*$|\b(?:which (?:one|option|approach|would|do)|would you (?:like|prefer)|do you (?:want|prefer)|prefer|want me to|shall i|should i|let me know|options?|approaches|alternatives|either)\b/i;

/**
 * The options a message lays out, by their key: lettered or "Option N" lines, and the
 * numbered items of a list offered as a choice. A later list's options replace an earlier one's.
 */
function options(message: string): Map<string, Option> {
  const found = new Map<string, Option>();
  const points = messagePoints(message);
  const last = points.at(-1);
  const asked = last !== undefined && OFFERS_CHOICE.test(last.text);
  for (const point of points) {
    const keyed = OPTION.exec(point.quote);
    if (point.kind === 'item') {
      const key = keyed ? keyed[1]!.toUpperCase() : point.number;
      // A numbered list is steps or findings unless someone is asked to pick from it.
      if (!key || !(keyed || asked || (point.lead !== undefined && OFFERS_CHOICE.test(point.lead)))) continue;
      found.set(key, { quote: point.quote, text: cleanSentence(point.text), group: `list ${point.list}` });
    } else if (point.kind === 'sentence' && keyed) {
      found.set(keyed[1]!.toUpperCase(), { quote: point.quote, text: cleanSentence(keyed[2]!), group: 'lines' });
    }
  }
  return found;
}

/**
 * What the assistant's first text in a turn agrees with, in its own words: the first
 * sentence of substance after the agreement. A plain "yes" or "no" needs that sentence (it
 * may go on "…, but"); "you're right" confirms the view even when nothing follows.
 */
function restatement(
  turn: Turn,
  view: string,
): { event: Turn['events'][number]; quote: string; text: string } | undefined {
  const [first] = assistantTexts(turn);
  if (!first) return undefined;
  const opening = first.text.replace(/\*\*/g, '');
  const answer = ANSWERS.exec(opening);
  const plain = answer !== null && (answer[2] === undefined) === !NEGATIVE.test(view);
  if (!AGREES.test(opening) && !plain) return undefined;
  // The restatement follows the agreement in the same breath, or not at all.
  for (const point of messagePoints(first.text.split(/\n\s*\n/)[0]!).slice(0, 3)) {
    if (point.kind !== 'sentence') break;
    const text = cleanSentence(point.text)
      .replace(AGREES, '')
      .replace(ANSWERS, '')
      .replace(/^[\s!.,:—–-]+/, '');
    if (significantWords(text).length >= 5 && !isChatter(text)) {
      return { event: first.event, quote: point.quote, text: text.charAt(0).toUpperCase() + text.slice(1) };
    }
  }
  return plain ? undefined : { event: first.event, quote: '', text: '' };
}

/** The sentence of the prompt that puts the view forward, as a statement: "i think" and a trailing "?" taken off. */
function viewOf(prompt: string): { quote: string; text: string } | undefined {
  const quote = sentences(prompt).find((sentence) => VIEW.test(sentence));
  if (!quote || REQUEST.test(quote.trim())) return undefined;
  const text = normalizeWhitespace(quote)
    .replace(/^(?:ah+|oh|ok(?:ay)?|hm+|well|so|wait)[.,!]*\s+/i, '')
    .replace(/^(?:i think|i believe|i feel|i guess|maybe)\s+/i, '')
    .replace(/^i don'?t think\s+(\w+)\s+(need|should|must|have)\b/i, '$1 do not $2')
    .replace(/\?+\s*$/, '');
  return { quote, text: text.charAt(0).toUpperCase() + text.slice(1) };
}

/** How many turns back an answer may pick from: options are often discussed a turn before one is picked. */
const PICK_REACH = 3;

function decisionFromPick(turn: Turn, earlier: readonly Turn[]): Proposal | undefined {
  const prompt = turn.prompt!;
  const pick = OPTION_PICK.exec(prompt.text);
  if (!pick || prompt.text.length > 300) return undefined;
  // The latest message that laid out an option of that name is the one answered.
  for (const previous of earlier.slice(-PICK_REACH).reverse()) {
    const closing = closingMessage(previous);
    const key = pick[1]!.toUpperCase();
    const option = closing && options(closing.text).get(key);
    if (!closing || !option) continue;
    if (isJunkTitle(option.text)) return undefined;
    const { title, rest } = titleAndRest(option.text);
    const said = normalizeWhitespace(prompt.text.slice(pick[0].length));
    // What was not chosen is part of the decision: the next session should not offer it again.
    const others = [...options(closing.text).entries()]
      .filter(([k, o]) => k !== key && o.group === option.group)
      .map(([, o]) => titleAndRest(o.text).title.replace(/[.!]+$/, ''));
    return propose(8, 'Decision', {
      title,
      facts:
        [rest !== option.text ? rest : '', others.length > 0 ? `Not chosen: ${others.join('; ')}.` : '']
          .filter(Boolean)
          .join(' ') || title,
      about: option.text,
      rationale: said.length >= 12 ? said : null,
      files: pathsIn(option.text),
      importance: 4,
      confidence: 0.8,
      evidence: [
        { eventId: closing.event.eventId, quote: option.quote },
        { eventId: prompt.event.eventId, quote: prompt.text.trim() },
      ],
    });
  }
  return undefined;
}

/** The assistant's strongest reason in the turn that confirmed a view. */
function argued(turn: Turn): Line | undefined {
  return turnLines(turn)
    .filter((l) => l.closing && (l.cues.includes('reason') || l.cues.includes('insight')))
    .sort((a, b) => b.score - a.score)[0];
}

function confirmedView(turn: Turn): Proposal | undefined {
  const prompt = turn.prompt!;
  const view = prompt.text.length <= 400 ? viewOf(prompt.text) : undefined;
  const restated = view && restatement(turn, view.quote);
  if (!view || !restated) return undefined;
  const title = restated.text ? titleAndRest(restated.text).title : view.text;
  // "We should run it on all push" is short and says it; a view of two words says nothing.
  if (title.split(/\s+/).length < 5 || significantWords(title).length < 2 || isJunkTitle(title)) return undefined;
  const cause = hasCue(`${view.text} ${restated.text}`, 'cause') || /\bthe (?:issue|problem|bug) is\b/i.test(view.text);
  const type: ItemType = cause ? 'BugFix' : 'Decision';
  const facts = [title !== view.text ? `${view.text}.` : '', restated.text ? titleAndRest(restated.text).rest : '']
    .filter((s) => s && s !== title && s !== restated.text)
    .join(' ');
  return propose(7, type, {
    title,
    facts: facts || title,
    about: view.text,
    // The view is the decision; why it holds is what the assistant went on to argue.
    rationale: type === 'Decision' ? (argued(turn)?.text ?? view.text) : null,
    files: pathsIn(`${view.text} ${restated.text}`),
    importance: 4,
    confidence: 0.75,
    evidence: [
      { eventId: prompt.event.eventId, quote: view.quote },
      ...(restated.quote ? [{ eventId: restated.event.eventId, quote: restated.quote }] : []),
    ],
  });
}

/**
 * Dialogue choices over a window's turns, by the turn whose prompt made them. `turns` may
 * begin with the turn before the window (read for its options only).
 */
export function dialogueChoices(turns: readonly Turn[]): Map<Turn, Proposal> {
  const found = new Map<Turn, Proposal>();
  turns.forEach((turn, i) => {
    if (!turn.prompt || !turn.promptInWindow) return;
    const choice = decisionFromPick(turn, turns.slice(0, i)) ?? confirmedView(turn);
    if (choice) found.set(turn, choice);
  });
  return found;
}
