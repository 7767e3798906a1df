import { isJunkTitle } from '../junk-title';
import { firstSentence, normalizeWhitespace, pathsIn, significantWords } from '../text';
import { messagePoints } from './message-points';
import { propose, type Proposal } from './proposal';
import { aboutTheConversation, cleanSentence, guesses, isChatter } from './salience';
import type { Line } from './turn-lines';
import { closingMessage, type Turn } from './turns';

/** A question, not a request: "is it problematic, data wise?", "how is it seeded?". */
const QUESTION = /\?\s*$|^(?:what|why|how|where|when|which|who|is|are|does|do|did|can|could|would|should)\b[^.!]*$/i;
/** Words a person opens a prompt with before saying anything: "ok. uh. no.", "yes, ". */
const INTERJECTIONS =
  /^(?:\s*(?:ok(?:ay)?|uh+|um+|hm+|ah+|oh|well|wait|no|nope|yes|yeah|yep|so|right|sure)[.!,]+(?=\s))+\s*/i;
/**
 * An answer that speaks of the assistant ("I don't have access to timestamps"), to the person
 * ("You renamed this session …", "You can create a changeset …"), of where both are right now
 * ("We're in a worktree …") or only agrees ("Yep — …") is about the conversation, not the
 * project.
 */
const ABOUT_THE_SPEAKERS = /^(?:i|i'm|i've|my|you|you're|you'll|you'd|your|we're|yep|yeah|nope)\b/i;
/**
 * One that only says what "it" is ("It's a known pain point with iTerm2") names its subject in
 * the question, not in the note, unless it names code ("It's stored in `~/.config/app.json`").
 * "It runs entirely in the browser" still says how the project works.
 */
const ONLY_WHAT_IT_IS = /^(?:it|that|this)(?:'s| is| was)\b(?![^`]*`)/i;

/**
 * A question the person asked, in a turn that changed nothing, and the direct answer the
 * closing message opens with: how the project works, where things live, what a choice costs.
 */
export function answer(turn: Turn, all: readonly Line[]): Proposal | undefined {
  const asked = turn.prompt?.text;
  const lastLine =
    asked
      ?.split('\n')
      .filter((l) => l.trim())
      .at(-1) ?? '';
  if (!asked || asked.length > 500 || !QUESTION.test(lastLine)) return undefined;
  const closing = closingMessage(turn);
  if (!closing) return undefined;
  // The answer is the opening paragraph; what follows elaborates it.
  const opening = messagePoints(closing.text.trim().split(/\n\s*\n/)[0]!)
    .filter((p) => p.kind === 'sentence')
    .map((p) => ({ quote: p.quote, text: cleanSentence(p.text).replace(/:$/, '') }))
    .filter((p) => significantWords(p.text).length >= 4 && !isChatter(`${p.text}.`));
  const [first, ...next] = opening;
  // A guess answers nothing until the session acts on it, and talk of the speakers is no answer.
  const aside = (text: string) =>
    ABOUT_THE_SPEAKERS.test(text) || ONLY_WHAT_IT_IS.test(text) || aboutTheConversation(text) || guesses(text);
  if (!first || aside(first.text)) return undefined;
  const title = firstSentence(first.text, 150);
  if (isJunkTitle(title)) return undefined;
  // The line that asks, without the "ok. uh. no." a person opens with; the whole prompt when
  // that line alone says little ("why?").
  const line = lastLine.replace(INTERJECTIONS, '');
  const question = firstSentence(
    normalizeWhitespace(significantWords(line).length >= 3 ? line : asked.replace(INTERJECTIONS, '') || asked),
    160,
  );
  const said = all.find((l) => l.quote === first.quote);
  return propose(4 + Math.min(3, said?.score ?? 0), 'ArchitectureNote', {
    title,
    // A title that is only the sentence's leading clause leaves the sentence whole to the note.
    facts: [
      ...(title === normalizeWhitespace(first.text) ? [] : [first.text]),
      ...next.slice(0, 2).map((p) => p.text),
      `Asked: ${question}`,
    ].join(' '),
    about: first.text,
    files: pathsIn(first.text),
    confidence: 0.65,
    evidence: [{ eventId: closing.event.eventId, quote: first.quote }],
  });
}
