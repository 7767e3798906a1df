import { localLinksAsPaths, pathsIn, significantWords } from '../text';
import { ENUMERATOR, type Point } from './message-points';

/**
 * What a sentence of the session says, by the cues real sessions use when they conclude: a
 * cause found, a choice and its reason, a change made and where, work left open. Sessions
 * rarely write "Decision:"; they write "the issue was …", "switched to X because …",
 * "still failing …" in the assistant's closing message of a turn.
 */
export type Cue = 'cause' | 'choice' | 'conclusion' | 'change' | 'open' | 'reason' | 'insight' | 'where';

/**
 * A failure the work met but did not cause ("`@chkit/plugin-pull` is a pre-existing e2e test that
 * requires `CLICKHOUSE_URL`"): open, and said mid-turn as often as at a turn's end.
 */
export const KNOWN_FAILURE =
  /\bpre-?existing\b[^.;\n]{0,60}\b(?:fail\w*|errors?|warnings?|issues?|tests?|problems?)\b|\b(?:fail\w*|errors?|warnings?)\b[^.;\n]{0,40}\bpre-?existing\b/i;
/**
 * What is said to be still failing or left to do. "The remaining ~20ms is the machine-id call"
 * names what is left; "remaining feedback: …" and "the remaining failures" are open.
 */
const STILL_OPEN =
  /\b(?:still (?:fail|need|broken|missing|to do|open|pending|not)|not yet|(?<!\bthe )remaining|the remaining (?:[\w-]+ )?(?:work|tasks?|items?|issues?|failures?|errors?|todos?|steps?|questions?|bugs?)\b|left to|todo\b|next steps?|follow[- ]up|known (?:issue|limitation)|doesn't (?:yet|work)|won't work|needs? (?:to be|more)|untested|not (?:tested|verified|working)|blocked|deferred|later\b|outstanding)/i;

function anyOf(...patterns: RegExp[]): RegExp {
  return new RegExp(patterns.map((p) => p.source).join('|'), 'i');
}

/** A sentence that names what was wrong: "The issue is that …", "Root cause: …". */
export const DIAGNOSIS =
  /\b(?:root cause|the (?:real |actual |underlying )?(?:issue|problem|bug|culprit) (?:was|is|here))\b/i;

/**
 * What something does from now on, in any verb, after what does it: "the release script now
 * auto-commits and pushes", "the server now corrects it to CPM". Not "now" as a time ("for now
 * tests are skipped", "right now requests time out", a sentence opening on "Now"), a word that is
 * no verb ("now this", "now its", "now always"), nor a state or a status ("now seems", "now
 * fails", "now passes"): those say how things stand, not what changed. Both lookbehinds are of
 * bounded length, so a long run of text costs no rescanning.
 */
const NOW_DOES =
  /(?<=[\w`'")\]] )now(?<!\b(?:for|right|until|till|by|just|even|of|from) now) (?!(?:its|was|always|perhaps|sometimes|afterwards|seems|looks|appears|needs|fails|passes|succeeds|completes|compiles|builds)\b)(?:[a-z]+-)?[a-z]{2,}(?<![isu])s\b/;

const CUES: Record<Cue, RegExp> = {
  cause: anyOf(
    DIAGNOSIS,
    /\b(?:the (?:real |actual )?reason (?:was|is|here)|caused by|was (?:failing|broken|happening) because|comes from|the fix (?:was|is) (?:to|that|in|a|an|the)\b|fixed (?:by|it)|this (?:broke|breaks)|turned out)\b/,
  ),
  choice:
    /\b(?:instead of|rather than|decided|chose|switched (?:to|from)|went with|opted|prefer(?:red)?|recommend(?:ed)?|trade-?off|better (?:to|than)|over (?:the|a|using)\b|not (?:use|using) |we use|we'll use|will use|in favou?r of)/i,
  // Where an answer or a discussion comes down to: "In short: …", "A pragmatic middle ground: …".
  conclusion:
    /\b(?:in short|in summary|to sum up|bottom line|all in all|on balance|the (?:real|key|main|core) (?:value|point|takeaway|problem|trade-?off|insight)|(?:a |the )?(?:pragmatic|practical|sensible|reasonable) (?:middle ground|compromise|approach|path)|best understood as|the (?:cleanest|best|simplest|safest|right) (?:fix|way|approach|option|solution) (?:is|would be)|i(?:'d| would) (?:recommend|suggest)|my (?:take|recommendation|verdict))\b/i,
  change: anyOf(
    /\b(?:added|created|updated|changed|replaced|removed|moved|renamed|fixed|implemented|configured|set up|wrote|rewrote|refactored|installed|enabled|disabled|committed|pushed|merged|spawned|built|generated|deployed|migrated|bumped|extracted|wired|now (?:uses?|runs?|has|is|calls?|returns?|shows?|works?)|is now|are now)\b/,
    NOW_DOES,
  ),
  open: anyOf(KNOWN_FAILURE, STILL_OPEN),
  insight:
    /\b(?:takeaway|lesson|gotcha|caveat|key (?:insight|finding|point)|important(?:ly)?|note that|requires?|have to|has to|must|only (?:works|if|when)|(?:does|did|can|could|would|will|is|are|was)n'?t|cannot|without|works? (?:by|because|only))\b/i,
  reason: /\b(?:because|since|so that|due to|which means|otherwise|to avoid|to prevent|in order to)\b/i,
  // Paths are matched from where a run of path characters starts, never from inside one: from
  // inside, a long run without a slash would be rescanned from each of its characters.
  where:
    /`[^`]+`|(?<![\w.@/-])(?:[\w.@-]+\/)+[\w.@-]+|(?<![\w-])[\w-]+\.(?:ts|tsx|js|jsx|py|go|rs|rb|java|json|ya?ml|toml|md|css|html|sh|sql)\b/i,
};

/** Cues are read in a point's opening: what it is about is said early, and reading on costs time. */
const CUE_READ = 1000;

const WEIGHTS: Record<Cue, number> = {
  cause: 3,
  choice: 3,
  conclusion: 3,
  open: 2,
  change: 2,
  reason: 2,
  insight: 2,
  where: 1,
};
/** A bullet that leads with a bold label (`**Root cause:** …`) is one the writer marked as a point. */
const MARKED = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*[^*]{2,60}\*\*/;

/** Sentences that narrate the assistant's process or offer more help: never a memory. */
const CHATTER =
  /^(?:(?:it |this |that )?(?:looks|seems|sounds) (?:like|to be|good|fine)\b|from what i (?:found|see|can (?:see|tell))\b|it appears\b|appears to\b|this should (?:fix|work|resolve|help|do)\b|(?:that |this |it )?should (?:now )?work\b|(?:try|run) (?:it |that )?again\b|(?:the )?(?:dev |local |web )?(?:server|build|deploy(?:ment)?|job|process|container|service|app) is (?:now )?(?:running|up|live|ready|healthy|started)\b|let me|let's (?:check|look|see|try|run|start|first)|i'll|i will|i'm going to|i am going to|now (?:let me|i'll)|first,? (?:let me|i'll)|next,? (?:let me|i'll)|ok(?:ay)?\b|sure\b|great\b|perfect\b|excellent\b|good\b|got it\b|you're (?:right|absolutely)|absolutely\b|thanks?\b|here(?:'s| is| are)\b|would you like|do you want|should i|shall i|if you(?:'d)? (?:want|like)|feel free|let me know|i can (?:also|help)|happy to)/i;

const FLUFF =
  /^(?:(?:(?:perfect|great|excellent|done|good news|nice|awesome|ok(?:ay)?|alright|good|got it|success|found it|found the (?:issue|problem|bug|culprit|cause)|you're (?:absolutely )?right|exactly|i see)[!.,:]|(?:honestly|actually|basically|so|anyway)(?: though)?,?)\s*)+/i;

export function cuesOf(sentence: string): Cue[] {
  const opening = sentence.slice(0, CUE_READ);
  return (Object.keys(CUES) as Cue[]).filter((c) => CUES[c].test(opening));
}

/**
 * A fallback offered for a case that may come ("If this still fails, we can build locally", "If
 * build times start feeling slow, splitting the build would be the next step") leaves no work
 * open. A condition that states a failure ("If you run the suite with `--runInBand`, the cache
 * tests still fail") does.
 */
export function offersAFallback(text: string): boolean {
  return /^(?:and |but |so )?(?:if|should (?:it|this|that))\b/i.test(text) && FALLBACK.test(text);
}
const FALLBACK = /\b(?:we|you) (?:can|could|might)\b|\b(?:try|consider)\b|\bwould be\b|\bnext step\b/i;

/**
 * Markdown emphasis and leading fluff taken off, links to the project's files read as their
 * paths, for titles and facts (evidence keeps the original).
 */
export function cleanSentence(sentence: string): string {
  return (
    localLinksAsPaths(sentence)
      .replace(/\*\*|__/g, '')
      .replace(/^(?:\s|\p{Extended_Pictographic}|\uFE0F|✓|✗|•|–|—|-)+/u, '')
      .replace(ENUMERATOR, '')
      .replace(FLUFF, '')
      // A teammate's note says what was done, not who reported it: "I've successfully implemented X".
      .replace(/^i(?:'ve| have)\s+(?:now\s+)?(?:successfully\s+)?(?=\w+ed\b)/i, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Asks, offers, leads into what it does not hold, or is chatter (text already cleaned). */
function speaksToThePerson(text: string): boolean {
  return text.endsWith('?') || text.endsWith(':') || CHATTER.test(text);
}

export function isChatter(sentence: string): boolean {
  const text = cleanSentence(sentence);
  return text.length < 25 || speaksToThePerson(text);
}

/**
 * A sentence that adds nothing past a note's title: an offer or question to the person ("Want me
 * to commit this?"), a lead into a list it does not hold ("The simplest way:"), chatter, or a
 * reaction of a word ("It didn't.", "That's the leak."). Unlike `isChatter`, a short fact
 * ("Keys expire after 30s.") still says something.
 */
export function addsNothing(sentence: string): boolean {
  const text = cleanSentence(sentence);
  return speaksToThePerson(text) || significantWords(text).length < 2;
}

/**
 * Status reports say how the work went, not what was learned: "All quality checks pass",
 * "Production ready", "Pushed successfully - all hooks pass". Short lines made of status
 * words, with nothing concrete (no code, no path, no cause or choice) in them.
 */
const STATUS =
  /\b(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|success(?:ful(?:ly)?)?|clean|green|ready|complete[d!]?|working|works?|done|fixed|resolved|merged|pushed|committed|verified|production[- ]ready|zero (?:warnings|errors))\b/i;

export function isStatusFluff(text: string): boolean {
  // Narration of the moment, however long: "logs are now being shipped to Loki successfully".
  if (NARRATION.test(text) && !(['cause', 'choice', 'reason'] as const).some((cue) => hasCue(text, cue))) return true;
  if (COMMIT_WENT.test(text) || PREDICTS_A_PASS.test(text)) return true;
  if ((['where', 'cause', 'choice', 'reason'] as const).some((cue) => hasCue(text, cue))) return false;
  const words = text.match(/[A-Za-z][A-Za-z'-]+/g) ?? [];
  return words.length <= 8 && STATUS.test(text);
}

/**
 * A sentence that ends on a run predicted to pass ("…, so the next CI run should pass"): the next
 * session knows whether it did. One that goes on ("should pass once `CLICKHOUSE_URL` is set",
 * "should pass on Node 20 but fail on Node 18") states a condition worth keeping.
 */
const PREDICTS_A_PASS =
  /\b(?:ci|build|run|checks?|tests?|pipeline|workflow) should (?:now )?(?:pass|succeed|be green)(?: now)?[\s.!]*$/i;
/** How the work is going right now, which is not what the next session needs to know. */
const NARRATION =
  /\b(?:(?:is|are) now being|now (?:being )?(?:shipp|deploy|build|runn|upload|sync)\w*|(?:has |have )?propagated|is (?:still )?(?:running|deploying|building) (?:in the background|now)|(?:pid|process id) \d+|kill (?:-\w+ )?\d{3,}|successfully (?:deployed|shipped|pushed|started|uploaded|published|running))\b/i;
/**
 * Where a commit went, said of its sha ("Committed and pushed as `cd7e235`", "The commit
 * `ccdd053` is now on the remote"): the turn's note states the commit itself.
 */
const COMMIT_WENT =
  /^(?:(?:committed and )?pushed(?: to \S+)? as `[0-9a-f]{7,40}`|the commit `[0-9a-f]{7,40}` is now on (?:the )?(?:remote|origin))/i;

/**
 * A sentence about the assistant or addressed to the person ("My context doesn't include
 * timestamps", "You'd have to check your scrollback") is about the conversation, not the
 * project, unless it names a file or a command.
 */
const PERSONAL = /^(?:i|i'm|i've|i'll|i'd|my|me|you|you're|you'd|you'll|you've|your)\b/i;
/** "I've implemented …", "I fixed …": the assistant reporting the work, which is about the project. */
const REPORTS_WORK =
  /^i(?:'ve| have)?\s+(?:\w+ly\s+)?(?:added|created|updated|changed|replaced|removed|moved|renamed|fixed|implemented|configured|set up|wrote|rewrote|refactored|converted|switched|migrated|made)\b/i;

/**
 * Talk about the conversation itself — the session's name, its reminders, the assistant's
 * memory — is about this chat, never the project: "You renamed this session to …", "The system
 * reminders you're seeing are just the IDE …", "Since my memory persists between conversations …".
 */
const ABOUT_THE_CONVERSATION =
  /\b(?:(?:this|your) (?:same |current )?(?:session|conversation|chat)|(?:previous|earlier|between) (?:sessions|conversations)|system[- ]reminders?|my (?:memory|context(?: window)?))\b/i;

export function aboutTheConversation(sentence: string): boolean {
  return ABOUT_THE_CONVERSATION.test(sentence);
}

/**
 * A sentence that opens on a word pointing back ("It only worked locally because …", "That tells
 * macOS to …", "These look like …", "Or add it to …") leans on what was said before it: alone,
 * as a teammate's note, it has no subject. "This PR adds …" names its subject and stands.
 */
const LEANS_BACK =
  /^(?:it(?:'s|s| is| was)?|they(?:'re| are| were)?|(?:this|that|these|those)(?:'s|\s+(?:is|isn't|are|aren't|was|wasn't|were|will|would|should|could|can|might|may|must|does|doesn't|did|didn't|has|hasn't|have|had|means?|tells?|makes?|looks?|seems?|works?|only|also|just|way|said))|or|also|yep|yeah|nope)\b/i;

export function leansOnWhatCameBefore(sentence: string): boolean {
  return LEANS_BACK.test(cleanSentence(sentence));
}

/**
 * A guess put forward, not a conclusion: "the issue is likely …", "might also contribute",
 * "I'd lean toward Option 3". Mid-investigation the assistant guesses aloud; what the session
 * then changed or concluded says what was so ("possibly-unbound" is a diagnostic's name).
 */
const GUESS =
  /\b(?:(?:is|are|was|were|it['’]s|that['’]s) (?:(?:most|very|quite) )?likely|might|may (?:be|not|also|have|help|cause|contribute)|could (?:also )?(?:be|cause|contribute|explain|help)|i['’]?d (?:lean|probably)|lean(?:ing)? toward|perhaps|possibly(?![-\w])|my (?:guess|hunch|suspicion)|should (?:now )?(?:fix|solve|resolve) (?:it|this|that|the (?:issue|problem|bug|error)))\b/i;
/** What a sentence states as a rule of the code: "`sessionId` may be null, so `reinforce()` must check it". */
const STATES_A_RULE = /\b(?:must|requires?|has to|have to)\b/i;

export function guesses(sentence: string): boolean {
  return GUESS.test(sentence) && !STATES_A_RULE.test(sentence);
}

/** How much a sentence teaches: the sum of its cues' weights; chatter says nothing. */
export function sentenceScore(sentence: string): number {
  if (isChatter(sentence)) return 0;
  const clean = cleanSentence(sentence);
  if (aboutTheConversation(clean)) return 0;
  const personal = PERSONAL.test(clean) && !REPORTS_WORK.test(clean) && !hasCue(clean, 'where');
  const score = cueWeight(sentence) - (personal ? 2 : 0);
  if (score <= 0) return 0;
  return MARKED.test(sentence) ? score + 1 : score;
}

export function hasCue(sentence: string, cue: Cue): boolean {
  return CUES[cue].test(sentence.slice(0, CUE_READ));
}

const cueWeight = (text: string) => cuesOf(text).reduce((sum, cue) => sum + WEIGHTS[cue], 0);

/**
 * How much a point teaches. A list counts by what its lead and its items say together, unless
 * the lead only offers or asks; a labelled item is one the writer marked as a point.
 */
export function pointScore(point: Point): number {
  if (point.kind === 'list') {
    const lead = cleanSentence(point.quote);
    if (/\?\s*:?$/.test(lead) || OFFER.test(lead)) return 0;
    // A list of the files touched says what the note's files say; the note keeps them.
    if (LISTS_FILES.test(lead)) return 0;
    // "Auto-redaction script (`scripts/redact.py`):" and what it does: a part of the project, described.
    const describesFile = pathsIn(lead).length > 0 ? 3 : 0;
    return cueWeight(cleanSentence(point.text)) + describesFile;
  }
  const score = sentenceScore(point.text);
  if (score === 0) return 0;
  // "Pros:", "Option 2:", "Example:" label one side of a comparison, not a conclusion.
  if (point.label !== undefined && GENERIC_LABEL.test(point.label)) return Math.max(0, score - 2);
  return point.label !== undefined || MARKED.test(point.quote) ? score + 1 : score;
}

const LISTS_FILES =
  /\bfiles?\s+(?:modified|created|changed|touched|added|updated|edited)\b|^(?:modified|changed|new|created|updated) files\b/i;

const GENERIC_LABEL =
  /^(?:pros?|cons?|options?(?: \w)?|approach \w|example|e\.g|benefits?|advantages?|disadvantages?|downsides?|upsides?|note|tip|before|after|step \d+|new|updated|added|modified|changed|removed)$/i;

/** A lead that introduces options or offers, not findings: "Would you like me to:", "Options:". */
const OFFER =
  /^(?:options?|would you like|do you want|should i|shall i|want me to|which (?:approach|option)|you could|i can)\b/i;
