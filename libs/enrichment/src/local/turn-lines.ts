import type { EngineEvent } from '../candidate';
import { significantWords } from '../text';
import { messagePoints, type Point } from './message-points';
import {
  addsNothing,
  cleanSentence,
  cuesOf,
  DIAGNOSIS,
  guesses,
  isChatter,
  isStatusFluff,
  KNOWN_FAILURE,
  offersAFallback,
  pointScore,
  type Cue,
} from './salience';
import { assistantTexts, closingMessage, type Turn } from './turns';

/** A point of the assistant's text in a turn, scored. */
export interface Line {
  event: EngineEvent;
  quote: string;
  /** What it says, markdown emphasis removed. */
  text: string;
  /** Its bold label, when the writer gave it one. */
  label?: string;
  score: number;
  cues: Cue[];
  closing: boolean;
  kind: Point['kind'];
  /** The list this item belongs to, or for a list, itself: a list and its items say the same thing. */
  group?: string;
  /**
   * The weighing this point stands in, when its list lays out sides of one question (options,
   * pros and cons, strengths and risks, considerations) rather than findings.
   */
  weighing?: string;
  /**
   * What the sentence goes on to say in the same paragraph, when that says something a note
   * can carry: an offer or question to the person ("Want me to commit this?"), a lead into a
   * list ("The simplest way:") or a reaction ("It didn't.") is no fact past a title.
   */
  next?: string;
  /** A sentence its paragraph opens with: with no `next`, nothing in the paragraph goes on from it. */
  opensParagraph: boolean;
  /** One of the sentences a closing message opens with, before any heading or list: its headline. */
  headline: boolean;
  /**
   * A diagnosis given mid-turn that a later message of the turn replaced with another: the
   * work went on, and what it found last is what it concluded.
   */
  revised: boolean;
}

/**
 * Said like a diagnosis, but replacing none: a denial ("… is not the root cause"), the work
 * reported done ("The issue is now fixed"), another problem ("The second failure has a different
 * root cause"), or the same one again ("the problem is the same regardless of …", "As found
 * above, …").
 */
const REPLACES_NONE =
  /\b(?:not|n['’]t|no longer) (?:\w+ )?(?:the )?(?:real |actual |underlying )?(?:root cause|cause|issue|problem|culprit)\b|\b(?:is|was|are|were|has been|have been) (?:now )?(?:fixed|resolved|solved|gone)\b|\b(?:second|another|other|different|separate|also|too|same)\b|\bas (?:found|noted|said|shown|mentioned) (?:above|before|earlier)\b/i;

/**
 * Mid-turn, the assistant diagnoses as it goes: "The issue is that …" is followed by more
 * tries and, often, another diagnosis. One a later message states (not guesses) replaces it.
 */
function markRevised(lines: Line[]): Line[] {
  const named = lines.map((l) => DIAGNOSIS.test(l.text));
  const replaces = named.map((n, i) => n && !guesses(lines[i]!.text) && !REPLACES_NONE.test(lines[i]!.text));
  // The last line that replaces: a diagnosis in an earlier message than its own is replaced.
  const last = replaces.lastIndexOf(true);
  const lastEvent = lines[last]?.event;
  return lines.map((l, i) => ({ ...l, revised: named[i]! && !l.closing && i < last && l.event !== lastEvent }));
}

const MIN_ITEM_WORDS = 7;

/** The sides of a choice: pros and cons, options, trade-offs. */
const SIDE_WORDS =
  'pros?|cons|benefits?|drawbacks?|downsides?|upsides?|advantages?|disadvantages?|options?|approaches|alternatives|trade-?offs?';
/** Leads and headings that lay out the sides of a question rather than what was found. */
const WEIGHING = new RegExp(
  `\\b(?:${SIDE_WORDS}|strengths?|weak(?:ness(?:es)?| points?)|risks?|caveats?|considerations?|concerns?|arguments?|(?:what|where) (?:works|helps|hurts|falls short)|for and against|case (?:for|against))\\b`,
  'i',
);

/** A list's lead that says what follows could have made something happen: "This can happen when:". */
const POSSIBLE_CAUSES = /\bcan (?:happen|occur) (?:when|if)\s*:\s*$/i;

function weighs(point: Point): boolean {
  const { lead = '', section = '', label = '' } = point;
  // A list led by a guess ("A few things that could help prevent it:") lists what might be tried,
  // one led by "This can happen when:" what might have been the cause: neither is a finding.
  return (
    WEIGHING.test(lead) || WEIGHING.test(section) || WEIGHING.test(label) || guesses(lead) || POSSIBLE_CAUSES.test(lead)
  );
}

/** The sides of a choice, as a sentence's lead names them; a caveat or a risk is a finding. */
const SIDES = new RegExp(`\\b(?:${SIDE_WORDS})\\b`, 'i');

/** A sentence led by the side it argues ("Cons: have to build state management ourselves"). */
function arguesASide(text: string): boolean {
  const side = /^([^:]{2,30}):\s/.exec(text)?.[1];
  return side !== undefined && side.split(/\s+/).length <= 3 && SIDES.test(side);
}

/** Cues a list's lead lends its items: "Here's the root cause chain:" makes each link a cause. */
const LENT: readonly Cue[] = ['cause', 'choice', 'open'];

/**
 * The points of a turn worth reading: every point of the closing message that says something,
 * and those of earlier texts that state a cause or a choice (mid-turn, the assistant narrates;
 * "Found it: the issue is …" is the exception).
 */
export function turnLines(turn: Turn): Line[] {
  const closing = closingMessage(turn);
  // Asked for strengths, risks or options, the answer's lists weigh one question whatever their leads say.
  const askedToWeigh = turn.prompt !== undefined && WEIGHING.test(turn.prompt.text);
  const lines = assistantTexts(turn).flatMap(({ event, text }, t) => {
    const isClosing = event === closing?.event;
    const points = messagePoints(text);
    const firstList = points.findIndex((point) => point.kind !== 'sentence');
    return points.flatMap((point, p): Line[] => {
      // A labelled paragraph goes on past its first sentence with what says something; the
      // first sentence alone is scored, as any sentence is.
      const said = point.continues?.filter((s) => !isChatter(s) && !guesses(s)) ?? [];
      const clean = cleanSentence([point.text, ...said].join(' '));
      // A bare link or a status report is no point of its own.
      if (isStatusFluff(clean) || significantWords(clean.replace(/https?:\/\/\S+/g, '')).length < 3) return [];
      const leadCues = point.lead ? cuesOf(point.lead).filter((c) => LENT.includes(c)) : [];
      // A fallback offered for a case that may come weighs as it reads, but leaves no work open.
      const cues = [...new Set([...cuesOf(clean), ...leadCues])].filter((c) => c !== 'open' || !offersAFallback(clean));
      // A short item ("`click(x, y)` instead of `browser_click()`") is a detail of its list, not a point.
      if (point.kind === 'item' && !point.label && significantWords(clean).length < MIN_ITEM_WORDS) return [];
      const raw = pointScore(point);
      if (raw === 0) return [];
      // A closing message opens with its headline: what the turn came to, before the details.
      const headline = isClosing && point.kind === 'sentence' && p < 3 && (firstList < 0 || p < firstList) ? 1 : 0;
      const score = raw + (leadCues.length > 0 ? 1 : 0) + headline;
      // Mid-turn only a cause, a choice or a failure the work did not cause is worth a note.
      if (!isClosing && !cues.includes('cause') && !cues.includes('choice') && !KNOWN_FAILURE.test(clean)) return [];
      // A list and the items its summary states say one thing; an item with more to say stands alone.
      const group =
        point.kind === 'sentence' || (point.kind === 'item' && (point.detail || !point.lead))
          ? undefined
          : `${t}:${point.list}`;
      return [
        {
          event,
          quote: point.quote,
          text: clean,
          label: point.label,
          score: isClosing ? score + 1 : score,
          cues,
          closing: isClosing,
          kind: point.kind,
          group,
          weighing:
            (point.kind !== 'sentence' && (askedToWeigh || weighs(point))) || arguesASide(clean)
              ? `${t}:${point.section ?? point.list}`
              : undefined,
          // "Other pages might be affected too." goes on from nothing a note can state.
          next: point.next && !addsNothing(point.next) && !guesses(point.next) ? cleanSentence(point.next) : undefined,
          opensParagraph: point.opensParagraph === true,
          headline: headline > 0,
          revised: false,
        },
      ];
    });
  });
  return markRevised(lines);
}
