import type { ItemType } from '@memex/domain';
import { isJunkTitle } from '../junk-title';
import { leadingClause, normalizeWhitespace, significantWords } from '../text';
import { sentences } from '@memex/entities';
import { cleanSentence, leansOnWhatCameBefore } from './salience';
import { OPTION_PICK } from './turns';

export interface UserRule {
  type: Extract<ItemType, 'Convention' | 'Decision'>;
  /** Standing rules first, then choices stated outright, then wishes ("let's keep it simple"). */
  strength: number;
  /** The rule in the user's words, markdown removed. */
  text: string;
  /** The sentence as it stands in the prompt, for evidence. */
  quote: string;
  /** The sentences around it in the same prompt: what it is about. */
  context: string;
  /** Why, when the person said: the rule's own "because …", or the sentence after it giving a reason. */
  reason?: string;
}

const REASON =
  /\b(?:because|since|so that|so (?:it|this|we|they|you|the)|as otherwise|otherwise|due to|in order to|to avoid|to prevent|the reason is)\b/i;

/** Standing rules: how work must always (or never) be done. */
const CONVENTION =
  /\b(?:next time|let me (?:commit|push|merge|deploy|release|do the (?:commits?|push|release))|always|never|from now on|make sure (?:to|you|we|that)|don'?t ever|do not ever|must(?:n'?t)? (?:always|never|be|use|run|not)|you should (?:always|never)|we should (?:always|never)|the rule is|by convention)\b|^(?:(?:to be clear|also|and|but|remember|note|important|again)[:,]?\s+)?(?:please )?(?:don'?t|do not|avoid|stop) \w+/i;

/** Choices for this project: what to use, what not, what is wanted, where and how work is done. */
const CHOICE =
  /\b(?:(?:work|stay|commit|push|base (?:it|this|the \w+)) (?:off|on|onto|to|from|against) (?:the |this |that |a )?[\w./-]+ branch|i(?:'ll| will) (?:do|handle|make) the (?:commits?|push(?:es)?|release|deploy)|(?:we|i)(?:'ve| have)? decided|decided to|we (?:chose|picked|went with|are going with)|instead of|rather than|i'?d rather|let'?s (?:use|go with|switch|keep|stick|do|make|not|try|change|move|put|just)|we (?:\w+ly )?(?:don'?t|do not|won'?t) (?:want|need|use)|we (?:want|need) (?:to|it|the|a)|i (?:prefer|like|don'?t like|want)|we (?:should|will|'ll|are going to) (?:use|go with|switch|keep|move)|(?:use|go with|pick) \S+(?:,| and) not\b|not \S+ but\b|for now\b|\binstead,? (?!of\b)\w+)/i;

/**
 * What the person says the team should do, as a way of working: "we should run the prettier
 * formatter on the README before committing it", a veto ("we probably should NOT file issues in
 * this way"). Not the next step of this task ("we should fix the failing test now", "then we
 * should deploy to staging"), which names no step of the work it always belongs to, nor a
 * forecast ("we should now see the new column", "we should still have the old tokens").
 */
const FORECAST = String.raw`(?:\w+ly |not |now |still |also |then |soon )*(?:be|have|see|get|notice|expect|need|find|hear)\b`;
const WE_SHOULD = new RegExp(
  String.raw`\bwe (?:\w+ly )?(?:` +
    // A veto needs no more: what is not to be done is a rule of how work is done.
    String.raw`(?:should(?:n'?t| not)|ought not to) (?!${FORECAST})\w+` +
    // What should be done is one when it says at which step it is done, or that it always is.
    String.raw`|(?:should|ought to) (?!${FORECAST})\w+[^.?!]*\b(?:(?:before|after) (?:\w+ing|each|every|any)|whenever|every time|each time|in this way|like this|from now on)\b)`,
  'i',
);

/** Choices stated outright: what was decided, what instead of what, what is not wanted. */
const FIRM =
  /\b(?:decided|chose|went with|instead of|rather than|i'?d rather|let'?s (?:use|go with|switch|stick)|we (?:\w+ly )?(?:don'?t|do not|won'?t) (?:want|need|use)|we (?:should|will|'ll) (?:use|go with|switch)|not \S+ but)\b/i;

/** "And remember that I'd rather …" states "I'd rather …". */
function asRule(text: string): string {
  const rule = text.replace(
    /^(?:(?:and|also|but|so|oh|ok(?:ay)?|please)[,]?\s+)*(?:(?:remember|note|keep in mind) that|to be clear[:,]?)\s+/i,
    '',
  );
  return rule.charAt(0).toUpperCase() + rule.slice(1);
}

/**
 * Said in the moment, not a rule: "never mind", "don't worry about it", "stop the dev server",
 * and what asks for a report on this task ("don't fix it, just check it and let me know why").
 */
const MOMENTARY =
  /^(?:(?:ok(?:ay)?|oh|ah|and|but|also)[,]?\s+)*(?:never ?mind|don'?t (?:worry|bother)|no worries|stop (?:the|that|this|it|running|there|here|now)\b)|\bjust (?:check|look|tell me|investigate|report)\b|\blet me know (?:why|what|how)\b/i;

/** A view put forward for the assistant to weigh, not a choice made: "i think", "maybe", "not sure". */
const HEDGED =
  /^(?:(?:ok(?:ay)?|so|hm+|well|but|and)[,.]?\s+)*(?:i (?:don'?t |do not )?(?:think|believe|guess|suppose|feel)|maybe|perhaps|probably|not sure|i'?m not sure|i wonder|possibly)\b/i;

/** A request for an answer, not a rule: "can you list …", "what are …". */
const ASKING = /^(?:can|could|would|will) you\b|^(?:what|why|how|where|when|which|who|is|are|does|do)\b/i;

/**
 * A prompt that opens by naming a review it passes on, as a header: "pr feedback:", "more
 * reviewer feedback: …", "## Code Review for PR #17", "Here is the review feedback:". Not one
 * that only speaks of reviews ("Code review feedback should always go in a separate commit",
 * "code review the changes in src/auth").
 */
const HANDS_ON_A_REVIEW =
  /^[\s#*>]*(?:here(?:['’]s| is| are) (?:the |some |more )?|(?:more|another|some|the) )?(?:pr|code|reviewer['’]?s?|review)\s+(?:feedback|comments?|review)(?=\s*(?::|\n|$)|\s+(?:for|on|of) (?:pr|pull request|the pr|#)|\s+#\d)/i;
/**
 * A review bot's comment passed on as written, as CodeRabbit words its prompts for an agent:
 * "In app/routes/api.plan-stream.ts around lines 76 to 82, the abort listener currently …", and
 * now "Verify each finding against the current code and only fix it if needed.\n\nIn
 * `@src/cli/run.ts` around lines 165 - 168, …" or "Inline comments:\nIn `@docs/a.md`:\n- Line 5: …".
 */
const REVIEW_COMMENT =
  /^\s*(?:(?:[-*]\s*)?(?:verify each finding against the current code|fix the following issues|inline comments:)[^\n]*\n\s*)*(?:[-*]\s*)?in `?@?[^\s`,]+`?(?:\s+around lines?\s+\d+(?:\s*(?:to|-|–)\s*\d+)?\s*,|:[ \t]*\n)/i;

/**
 * "because we want the agent driving the browser.": the why of what came before, no choice
 * alone. A standing rule with its reason in front ("Because it breaks CI never push to main")
 * stands; "since" is as often a time ("Since v2 we always use pnpm").
 */
const ONLY_A_REASON = /^(?:because|'?cause)\b[^,;:]*$/i;

/**
 * The user's own rules and choices in a prompt, in the user's words. People state them in
 * passing ("let's use apple container instead of docker"), seldom behind a keyword.
 */
export function userRules(prompt: string): UserRule[] {
  // A review handed on ("pr feedback: …", "Code Review for PR #17: …") is the reviewer's words:
  // its "must be fixed before merging" is what the session answers, not a rule of the person's.
  if (HANDS_ON_A_REVIEW.test(prompt) || REVIEW_COMMENT.test(prompt)) return [];
  const argued = withItsReasons(prompt);
  if (argued) return [argued];
  const all = sentences(prompt);
  const rules: Array<UserRule & { at: number }> = [];
  all.forEach((quote, i) => {
    const text = asRule(cleanSentence(quote));
    // A question, or pasted output, states no rule.
    if (text.length < 20 || text.length > 600 || /\?/.test(text) || ASKING.test(text) || isJunkTitle(text)) return;
    // "This might make the script simpler", "Also I am thinking …": alone it has no subject.
    if (leansOnWhatCameBefore(text)) return;
    if (MOMENTARY.test(text)) return;
    // "ok let's do 1 and create a PR" picks an option the assistant offered: the option is the decision.
    if (OPTION_PICK.test(text)) return;
    // "Nothing else for now" names no rule on its own.
    if (significantWords(text).length < 3) return;
    const type = CONVENTION.test(text)
      ? 'Convention'
      : CHOICE.test(text) || WE_SHOULD.test(text)
        ? 'Decision'
        : undefined;
    if (!type) return;
    if (type === 'Decision' && ONLY_A_REASON.test(text)) return;
    // "I don't think we need a Dockerfile" puts a view forward; what the session does with it decides.
    if (type === 'Decision' && HEDGED.test(text)) return;
    const around = all
      .slice(Math.max(0, i - 1), i + 2)
      .map(cleanSentence)
      .join(' ');
    // The person's own word outranks the assistant's reading of the work.
    const strength = type === 'Convention' ? 9 : FIRM.test(text) ? 8 : 6;
    const next = all[i + 1] ? cleanSentence(all[i + 1]!) : undefined;
    const reason = REASON.test(text) ? text : next && REASON.test(next) ? next : undefined;
    rules.push({ type, strength, text, quote, context: around, ...(reason ? { reason } : {}), at: i });
  });
  return withAlternatives(rules, all);
}

/** A rule against something: "we don't want …", "never …", "avoid …". */
const AGAINST =
  /\b(?:never|avoid|no longer|(?:don'?t|do not|won'?t|shouldn'?t|must not|mustn'?t) (?:\w+ly )?(?:want|need|use|add|do|make|put|run|commit|push|change|touch|include|create|write|keep|ship|merge))\b/i;

/**
 * "we explicitly don't want hardcoded visual tests. crash detection is table stakes. we want the
 * judgement of the ai": a choice against something and what is wanted instead, a sentence or
 * two apart, are one choice, told together. Standing rules ("Always run the linter. Never push
 * to main.") and choices of one sign in a row stay apart: each is a rule of its own.
 */
function withAlternatives(rules: Array<UserRule & { at: number }>, all: readonly string[]): UserRule[] {
  const out: Array<UserRule & { at: number; last: number }> = [];
  for (const rule of rules) {
    const prev = out[out.length - 1];
    const choices = prev?.type === 'Decision' && rule.type === 'Decision';
    if (prev && choices && rule.at - prev.last <= 2 && AGAINST.test(prev.text) !== AGAINST.test(rule.text)) {
      prev.last = rule.at;
      prev.strength = Math.max(prev.strength, rule.strength);
      prev.context = all
        .slice(Math.max(0, prev.at - 1), rule.at + 2)
        .map(cleanSentence)
        .join(' ');
      if (!prev.reason && rule.reason) prev.reason = rule.reason;
      continue;
    }
    out.push({ ...rule, last: rule.at });
  }
  return out.map(({ at: _at, last: _last, ...rule }) => rule);
}

const WHY_WORD = String.raw`(?:\*\*)?(?:rationale|reasoning|reasons?|why|motivation)(?:\*\*)?`;
/**
 * A line that says the reasons for what came before follow: "rationale:", "**Why:**", "## Reasons".
 * A heading, or a label ending in a colon: a bare "why" on its own line asks, it does not lead.
 */
const REASONS_LEAD = new RegExp(
  String.raw`^[ \t]*(?:#{1,6}[ \t]*${WHY_WORD}[ \t]*:?|${WHY_WORD}[ \t]*:(?:\*\*)?)[ \t]*$`,
  'im',
);
const LIST_MARK = /^(?:[-*+•]|\d{1,2}[.)])\s+/;
/** How much of the person's reasons a choice keeps: the first of them, and what else fits whole. */
const REASONS_CHARS = 300;

/**
 * "rename /whats-next to /vamp\nrationale:\n- Jazz-native: vamping is what musicians do …": a
 * request the person argues for, under a line saying the reasons follow, is a choice with its
 * reason. The reasons are why, not choices of their own ("deepens the music metaphor rather
 * than just sitting beside it" says "rather than" of a metaphor, not of what to do).
 */
function withItsReasons(prompt: string): UserRule | undefined {
  const lead = REASONS_LEAD.exec(prompt);
  if (!lead) return undefined;
  const request = prompt.slice(0, lead.index).trim();
  const said = sentences(request);
  // A request is a line or two; a question asks, it does not choose.
  if (said.length === 0 || said.length > 2 || request.length > 300 || /\?/.test(request)) return undefined;
  // A list item's wrapped lines go on with it; each item is a reason of its own.
  const reasons: string[] = [];
  let inItem = false;
  for (const line of prompt.slice(lead.index + lead[0].length).split('\n')) {
    const text = line.trim();
    if (!text) continue;
    if (inItem && !LIST_MARK.test(text)) reasons[reasons.length - 1] += ` ${text}`;
    else reasons.push(text.replace(LIST_MARK, ''));
    if (LIST_MARK.test(text)) inItem = true;
  }
  const [first, ...others] = reasons.map(cleanSentence);
  if (!first) return undefined;
  // Whole reasons, as many as fit: the first always, a long one as its leading clause.
  let reason = leadingClause(first, REASONS_CHARS);
  for (const more of others) {
    if (reason.length + more.length + 2 > REASONS_CHARS) break;
    reason = `${reason}; ${more}`;
  }
  const text = asRule(cleanSentence(said[0]!));
  return {
    type: CONVENTION.test(text) ? 'Convention' : 'Decision',
    strength: CONVENTION.test(text) ? 9 : 8,
    text,
    quote: said[0]!,
    context: normalizeWhitespace(request),
    reason,
  };
}
