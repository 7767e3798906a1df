import type { ItemType } from '@memex/domain';
import { isJunkTitle } from '../junk-title';
import { leadingClause, significantWords } from '../text';
import { sentences } from '@memex/entities';
import { cleanSentence, leansOnWhatCameBefore } from './salience';
import { reasonsGiven, type ReasonsGiven } from './reasons-given';
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
  const argued = reasonsGiven(prompt);
  if (!argued) return rulesIn(prompt);
  // The reasons are why, not rules of their own; what the prompt says before and after them is
  // read as any prompt is, each part on its own.
  const { choice, besides } = arguedChoice(argued);
  return [...(choice ? [choice] : []), ...rulesIn(besides), ...rulesIn(argued.rest)];
}

function rulesIn(text: string): UserRule[] {
  const all = sentences(text);
  const rules: Array<UserRule & { at: number }> = [];
  all.forEach((quote, i) => {
    const text = statement(quote);
    if (text === undefined) return;
    const kind = ruleKind(text);
    if (!kind) return;
    const around = all
      .slice(Math.max(0, i - 1), i + 2)
      .map(cleanSentence)
      .join(' ');
    const next = all[i + 1] ? cleanSentence(all[i + 1]!) : undefined;
    const reason = REASON.test(text) ? text : next && REASON.test(next) ? next : undefined;
    rules.push({ ...kind, text, quote, context: around, ...(reason ? { reason } : {}), at: i });
  });
  return withAlternatives(rules, all);
}

/** A sentence of the person's that can state a rule, as the rule reads; none for a question, pasted output or a moment's word. */
function statement(quote: string): string | undefined {
  const text = asRule(cleanSentence(quote));
  // A question, or pasted output, states no rule.
  if (text.length < 20 || text.length > 600 || /\?/.test(text) || ASKING.test(text) || isJunkTitle(text))
    return undefined;
  // "This might make the script simpler", "Also I am thinking …": alone it has no subject.
  if (leansOnWhatCameBefore(text) || MOMENTARY.test(text)) return undefined;
  // "ok let's do 1 and create a PR" picks an option the assistant offered: the option is the decision.
  if (OPTION_PICK.test(text)) return undefined;
  // "Nothing else for now" names no rule on its own.
  return significantWords(text).length < 3 ? undefined : text;
}

/** What kind of rule a statement is, and how strongly the person put it; none when it states no rule. */
function ruleKind(text: string): Pick<UserRule, 'type' | 'strength'> | undefined {
  const type = CONVENTION.test(text)
    ? 'Convention'
    : CHOICE.test(text) || WE_SHOULD.test(text)
      ? 'Decision'
      : undefined;
  if (!type) return undefined;
  if (type === 'Decision' && ONLY_A_REASON.test(text)) return undefined;
  // "I don't think we need a Dockerfile" puts a view forward; what the session does with it decides.
  if (type === 'Decision' && HEDGED.test(text)) return undefined;
  // The person's own word outranks the assistant's reading of the work.
  return { type, strength: type === 'Convention' ? 9 : FIRM.test(text) ? 8 : 6 };
}

/**
 * A change to how the project is shaped, asked for outright: with reasons given for it
 * ("rename /whats-next to /vamp" / "rationale: …"), the person has chosen it. It names what
 * becomes what: rename X to Y, replace X with Y, switch or migrate from X to Y, use X instead of
 * Y. Not the task's next step ("fix the failing test", "switch to the main branch and pull",
 * "move the button 10px to the left"), reasons or not.
 */
const ARGUED_CHANGE =
  /^(?:please\s+)?(?:let'?s\s+)?(?:rename\s+\S+(?:\s+\S+){0,3}\s+(?:to|as)\s|replace\s.+\swith\s|(?:switch|migrate|move)\s+(?:\S+\s+){0,4}?from\s.+\sto\s|use\s.+\s(?:instead of|rather than)\s)/i;
/** How much of the person's reasons a choice keeps: the first of them, and what else fits whole. */
const REASONS_CHARS = 300;

/**
 * "rename /whats-next to /vamp\nrationale:\n- Jazz-native: vamping is what musicians do …": a
 * request of a sentence or two the person argues for is one choice, with its reasons as its
 * rationale; a request that is no rule ("fix the failing test / why: …") is none.
 */
function arguedChoice({ request, reasons }: ReasonsGiven): { choice?: UserRule; besides: string } {
  const said = sentences(request);
  const none = { besides: request };
  // A question asks for an answer, wherever it stands in the request.
  if (said.length === 0 || said.length > 2 || request.length > 300 || /\?/.test(request)) return none;
  const text = statement(said[0]!);
  if (text === undefined) return none;
  const kind =
    ruleKind(text) ?? (ARGUED_CHANGE.test(text) && !HEDGED.test(text) ? { type: 'Decision', strength: 8 } : undefined);
  if (!kind) return none;
  // Whole reasons, as many as fit: the first always, a long one as its leading clause.
  const [first, ...others] = reasons.map(cleanSentence);
  let reason = leadingClause(first!, REASONS_CHARS);
  for (const more of others) {
    if (reason.length + more.length + 2 > REASONS_CHARS) break;
    reason = `${reason}; ${more}`;
  }
  return {
    choice: { ...kind, text, quote: said[0]!, context: cleanSentence(request), reason },
    besides: said.slice(1).join(' '),
  };
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
