import type { ItemType } from '@memex/domain';
import type { EngineEvent } from '../candidate';
import { isJunkTitle } from '../junk-title';
import { firstSentence, leadingClause, normalizeWhitespace, pathsIn, significantWords, truncateWords } from '../text';
import {
  COMMAND_TOOLS,
  commitOf,
  editedFile,
  editedFiles,
  errorLine,
  filesOfAFix,
  passingRun,
  TEST_FILE,
  type CommitInfo,
} from './event-signals';
import { sentences } from '@memex/entities';
import { propose, type Proposal } from './proposal';
import {
  addsNothing,
  cleanSentence,
  guesses,
  hasCue,
  isStatusFluff,
  leansOnWhatCameBefore,
  offersAFallback,
  type Cue,
} from './salience';
import { lastTodoList, planInPrompt, planOf } from './todo-lists';
import { turnLines, type Line } from './turn-lines';
import type { Turn } from './turns';
import { answer } from './answers';

const FIX_REQUEST = /\b(?:fix|bug|broken|failing|fails|error|crash\w*|regression|doesn'?t work|not working|wrong)\b/i;
/**
 * A brain line shows about 300 characters of an item's facts: a note says its most telling
 * points within that, and the rest of what the turn did after.
 */
const LEAD_CHARS = 280;
/** Conclusions stated strongly enough to stand as items of their own. */
const FINDING_SCORE = 4;
const MAX_FINDINGS = 6;
const FINDING_TYPE: Array<[Cue, ItemType]> = [
  ['cause', 'BugFix'],
  ['choice', 'Decision'],
  ['open', 'Todo'],
  ['change', 'ImplementationFact'],
  ['insight', 'ArchitectureNote'],
  ['conclusion', 'ArchitectureNote'],
  ['where', 'ArchitectureNote'],
];
/** The sentence that best says what a note is, by the cue its type is about. */
const TITLE_CUE: Record<ItemType, Cue> = {
  BugFix: 'cause',
  Decision: 'choice',
  ImplementationFact: 'change',
  ArchitectureNote: 'where',
  Convention: 'choice',
  Todo: 'open',
  CodeMapNode: 'where',
};

/** How long a title may be before it is named by its leading clause instead. */
const TITLE_CHARS = 160;

/**
 * A line's words as a title, and what the note says past the title. A first sentence that
 * fits is the title, and the note goes on with the rest; a longer one is titled by its
 * leading clause and stated whole in the note, so neither ever starts or stops mid-sentence.
 */
export function titleAndRest(text: string): { title: string; rest: string } {
  const all = sentences(text);
  // A status lead ("Still failing. The issue is …") names nothing: the sentence after it is the
  // title, and the note states both. A short sentence that says something ("Use Kysely.") is
  // the title, and so is everything when what follows says nothing ("Done. Want me to …?").
  const lead = all.length > 1 && isStatusLead(all[0]!) && !addsNothing(all[1]!) ? all[0]! : undefined;
  const [first = text, ...others] = lead ? all.slice(1) : all;
  const whole = normalizeWhitespace(first);
  const title = leadingClause(whole, TITLE_CHARS);
  const said = title === whole && !lead ? others : [...(lead ? [lead] : []), whole, ...others];
  const rest = normalizeWhitespace(said.join(' '));
  return { title, rest: rest || text };
}

/** A sentence of status words alone: "Still failing.", "Done!", "Fixed." */
const STATUS_LEAD =
  /^(?:still (?:failing|broken|not working|the same)|not (?:yet|fixed|working)|(?:it )?fail(?:s|ed|ing)|broken)[.!]*$/i;
function isStatusLead(sentence: string): boolean {
  const text = cleanSentence(sentence);
  return significantWords(text).length <= 2 && (STATUS_LEAD.test(text) || isStatusFluff(text));
}

/**
 * The turn's first failed command before it changed anything but tests, with an edit after it:
 * the symptom of what was fixed.
 */
function symptom(events: readonly EngineEvent[]): string | undefined {
  const edited = events.map(editedFile);
  // What failed before the turn changed the code is what it set out to fix; a failure met after
  // (a lint error in the new code, a test the change broke) is a step of the work.
  const changed = edited.findIndex((file) => file !== undefined && !TEST_FILE.test(file));
  // ...and only a failure some edit followed was fixed in the turn.
  const lastEdit = edited.reduce((last, file, i) => (file !== undefined ? i : last), -1);
  const end = Math.min(changed < 0 ? events.length : changed, lastEdit);
  for (let i = 0; i < end; i += 1) {
    // A web fetch or a tool the assistant misused failing is not a bug in the project.
    const tool = events[i]!.metadata?.tool;
    if (typeof tool === 'string' && !COMMAND_TOOLS.has(tool)) continue;
    const line = errorLine(events[i]!);
    if (line && !isJunkTitle(line)) return line;
  }
  return undefined;
}

/** Best first, each text once, and a list never beside one of its own items. */
function pick(all: readonly Line[], keep: (line: Line) => boolean, max: number): Line[] {
  const kept: Line[] = [];
  const groups = new Set<string>();
  const texts = new Set<string>();
  for (const line of [...all].sort((a, b) => b.score - a.score)) {
    if (kept.length >= max) break;
    if (texts.has(line.text) || (line.group && groups.has(line.group)) || !keep(line)) continue;
    kept.push(line);
    texts.add(line.text);
    if (line.group) groups.add(line.group);
  }
  return kept;
}

/** A failure met and fixed along the way is part of any work; a fix is what was asked or found. */
function typeOf(turn: Turn, picked: readonly Line[], changed: boolean): ItemType {
  const cues = new Set(picked.flatMap((l) => l.cues));
  const asksFix = turn.prompt !== undefined && FIX_REQUEST.test(turn.prompt.text);
  if (changed && (cues.has('cause') || asksFix)) return 'BugFix';
  if (changed) return 'ImplementationFact';
  if (cues.has('cause')) return 'BugFix';
  if (cues.has('choice')) return 'Decision';
  return 'ArchitectureNote';
}

interface Note {
  proposal: Proposal;
  /** Lines the note states, which need no item of their own. */
  covered: Set<Line>;
}

/**
 * What a turn that changed something did, as a teammate's note: its headline (the closing
 * message's best point for the note's type), the next best points, the symptom of a fix, the
 * plan, commits, finished todo entries and passing checks; the files it changed.
 */
function turnNote(turn: Turn, all: readonly Line[], edits: readonly string[]): Note | undefined {
  // A commit shows as the call that made it and as what git printed (with its sha): one commit.
  const byMessage = new Map<string, { event: EngineEvent; info: CommitInfo }>();
  for (const e of turn.events) {
    const info = commitOf(e);
    if (!info || info.message.length < 12 || isJunkTitle(info.message)) continue;
    const seen = byMessage.get(info.message);
    if (seen) seen.info = { ...seen.info, sha: seen.info.sha ?? info.sha, branch: seen.info.branch ?? info.branch };
    else byMessage.set(info.message, { event: e, info });
  }
  const commits = [...byMessage.values()];
  const changed = edits.length > 0 || commits.length > 0;
  if (!changed) return undefined;
  const checks = [...new Set(turn.events.map(passingRun).filter((c): c is string => c !== undefined))];
  const error = symptom(turn.events);
  const done =
    lastTodoList(turn.events)
      ?.entries.filter((t) => t.done)
      .map((t) => t.text) ?? [];
  const plan =
    turn.events.map(planOf).find((p) => p !== undefined) ?? (turn.prompt ? planInPrompt(turn.prompt.text) : undefined);

  const closing = all.filter((l) => l.closing);
  const type = typeOf(turn, closing, changed);
  // A headline that points back ("That's expected since …") has no subject in the brain.
  // Nor does a side of a weighing, or of a guess ("This should fix it by: …"), or a fallback
  // offered for a case that may come ("If this still fails, we can …"): neither says what was done.
  const usable = (l: Line) =>
    l.weighing === undefined &&
    !l.revised &&
    !offersAFallback(l.text) &&
    !isJunkTitle(titleAndRest(l.text).title) &&
    !leansOnWhatCameBefore(l.text);
  // The headline says what the note is about: a fix its cause, even when the cause was found mid-turn.
  const [head] = [
    ...pick(closing, (l) => usable(l) && l.headline && hasCue(l.text, TITLE_CUE[type]), 1),
    ...pick(closing, (l) => usable(l) && hasCue(l.text, TITLE_CUE[type]), 1),
    ...pick(all, (l) => usable(l) && !l.closing && hasCue(l.text, TITLE_CUE[type]), 1),
    ...pick(closing, usable, 1),
  ];
  const commitTitle = commits.map((c) => firstSentence(c.info.message, 150)).find((t) => !isJunkTitle(t));
  const first = turn.prompt ? firstSentence(turn.prompt.text, 150) : undefined;
  // "Thanks." or "go on" asked for nothing a note should repeat.
  const asked = first && significantWords(first).length >= 3 && !isJunkTitle(first) ? first : undefined;
  // A closing message that says little ("That's expected since …") names the turn worse than its commit.
  const weak = !head || head.score < FINDING_SCORE;
  const said = head ? whatItSays(head) : undefined;
  const title = weak && commitTitle ? commitTitle : said ? said.title : asked;
  if (!title) return undefined;

  // What the note says first: the headline past the title, or whole under a commit's title.
  const lead = head ? (title === commitTitle ? head.text : said!.facts) : '';
  // The sentence a headline goes on with is a line of the note as much as those picked after it.
  const inLead = closing.filter((l) => l !== head && lead.includes(l.text));
  let room = LEAD_CHARS;
  // What the headline's own list says is already in it.
  const more = pick(
    closing.filter((l) => l !== head && !(head?.group && l.group === head.group) && !inLead.includes(l)),
    (l) => {
      // "Changes made to the worker and its docs:" announces what it does not hold.
      if (l.text.length > room || addsNothing(l.text)) return false;
      room -= l.text.length + 1;
      return true;
    },
    4,
  );
  const files = [...new Set([...edits, ...commits.flatMap((c) => c.info.files)])];
  const shas = commits.flatMap((c) =>
    c.info.sha ? [`${c.info.sha.slice(0, 7)}${c.info.branch ? ` on ${c.info.branch}` : ''}`] : [],
  );
  const facts = [
    [lead, ...more.map((l) => l.text)].filter((s) => s && s !== title).join(' '),
    ...(type === 'BugFix' && error ? [`Symptom: ${error}`] : []),
    ...(type === 'BugFix' && !error && asked && !onlyAssents(asked) ? [`Reported: ${asked}`] : []),
    ...(type !== 'BugFix' && asked && asked !== title && !onlyAssents(asked) ? [`Asked: ${asked}`] : []),
    ...(plan ? [`Plan: ${truncateWords(normalizeWhitespace(plan), 300)}`] : []),
    ...commits.slice(0, 3).map((c) => `Committed: ${firstSentence(c.info.message, 200)}`),
    ...(shas.length > 0 ? [`Commits: ${shas.join(', ')}`] : []),
    ...(done.length > 0 ? [`Done: ${truncateWords(done.join('; '), 400)}`] : []),
    ...(checks.length > 0 ? [`Checked: ${checks.slice(0, 3).join(', ')} passed.`] : []),
  ]
    .filter((s) => s.length > 0)
    .join('\n');
  const told = [...inLead, ...more];
  // The why is a line past the headline; the headline is the title already.
  const reason = told.find((l) => l.cues.includes('reason') || l.cues.includes('cause'));
  const quoted = (event: EngineEvent, text: string) => ({
    eventId: event.eventId,
    quote: firstSentence(text, 300).replace(/…$/, ''),
  });
  const substance = [head, ...told].reduce((s, l) => s + (l?.score ?? 0), 0);
  return {
    covered: new Set([head, ...told].filter((l): l is Line => l !== undefined)),
    // What the turn concluded weighs most; how much it changed and committed adds a little.
    // A commit is the session saying this is done: it alone makes the note worth keeping.
    proposal: propose(substance + Math.min(edits.length, 3) + Math.min(commits.length, 2) * 3 + (error ? 1 : 0), type, {
      title,
      facts: facts || title,
      // Keyed by what was asked, so a turn read again when it closes reinforces its first note.
      about: asked ?? title,
      rationale: (type === 'Decision' || type === 'BugFix') && reason ? reason.text : null,
      files,
      // A turn that changed the project is context for whoever works there next (3); a one-file touch that says nothing is a detail.
      importance: substance === 0 && edits.length <= 1 && commits.length === 0 ? 2 : 3,
      confidence: commits.length > 0 ? 0.85 : edits.length > 0 ? 0.75 : 0.65,
      resolved: type === 'BugFix' && checks.length > 0,
      evidence: [
        ...[head, ...told.slice(0, 2)].flatMap((l) => (l ? [{ eventId: l.event.eventId, quote: l.quote }] : [])),
        ...(turn.prompt ? [quoted(turn.prompt.event, turn.prompt.text)] : []),
        ...commits.slice(0, 1).map((c) => quoted(c.event, c.info.message)),
      ],
    }),
  };
}

/**
 * A short sentence that opens its paragraph and goes on to nothing that says something ("The
 * fix is to rebuild the worktree's index", "The fix is to rebuild it. The simplest way:") names
 * neither what nor why: in the brain, away from the message around it, it is a fragment. A
 * paragraph's later sentence goes on from what came before it; a list item stands in its list.
 */
const ALONE_CHARS = 70;
function saysTooLittle(l: Line): boolean {
  return l.opensParagraph && l.next === undefined && l.text.trim().length < ALONE_CHARS;
}

/**
 * Conclusions a note does not already state: a root cause, a choice, a change, an insight.
 * The bullets of a weighing (options, pros and cons, strengths and risks, considerations) are
 * sides of one question, not findings: what the session concluded from them is said in a
 * sentence, or in the option the person picked (dialogue), and a weighing left open gives none.
 */
function findings(all: readonly Line[], covered: ReadonlySet<Line>, edits: readonly string[]): Proposal[] {
  const coveredGroups = new Set([...covered].flatMap((l) => (l.group ? [l.group] : [])));
  return pick(
    all,
    (l) =>
      !covered.has(l) &&
      !(l.group && coveredGroups.has(l.group)) &&
      l.weighing === undefined &&
      // A diagnosis the turn replaced with a later one is what it thought, not what it found.
      !l.revised &&
      l.score >= FINDING_SCORE &&
      // A finding stands alone in the brain; one that points back to what came before cannot.
      !leansOnWhatCameBefore(l.text) &&
      // A guess that no change acted on is no finding: the session may yet refute it.
      !guesses(l.text) &&
      !saysTooLittle(l) &&
      !isJunkTitle(titleAndRest(l.text).title),
    MAX_FINDINGS,
  ).flatMap((l) => {
    const type = FINDING_TYPE.find(([cue]) => l.cues.includes(cue))?.[1];
    if (!type) return [];
    const { title, facts } = whatItSays(l);
    const named = pathsIn(l.text);
    return [
      propose(l.score, type, {
        title,
        facts,
        about: l.text,
        rationale: type === 'Decision' && l.cues.includes('reason') ? l.text : null,
        // A cause or fix naming no file ("Root cause: two sorts gave all creates one rank") is
        // about the files its turn changed to fix it: where a teammate would look.
        files: type === 'BugFix' && named.length === 0 ? filesOfAFix(edits) : named,
        importance: l.score >= 7 ? 4 : 3,
        confidence: 0.65,
        evidence: [{ eventId: l.event.eventId, quote: l.quote }],
      }),
    ];
  });
}

/**
 * A line as a note: its title, and what it says past it. A sentence that is all headline says
 * what it meant in the sentence after it; one titled by its leading clause is stated whole
 * first, so the note never stops where the title did.
 */
function whatItSays(l: Line): { title: string; facts: string } {
  const { title, rest } = titleAndRest(l.text);
  if (rest !== l.text) return { title, facts: rest };
  return { title, facts: title === rest ? (l.next ?? rest) : normalizeWhitespace(`${rest} ${l.next ?? ''}`) };
}

function todo(salience: number, text: string, event: EngineEvent, quote: string): Proposal {
  const { title, rest } = titleAndRest(text);
  return propose(salience, 'Todo', {
    title,
    facts: rest,
    about: text,
    confidence: 0.6,
    evidence: [{ eventId: event.eventId, quote }],
  });
}

/**
 * Work left open when a turn ends: what the closing message says is still failing or yet to
 * do (a fallback it offers for a case that may come is not: `turnLines`), and the entries the
 * window's last todo list leaves unfinished.
 */
function openWork(turn: Turn, all: readonly Line[], isLast: boolean): Proposal[] {
  // A side of a weighing ("Natural archival path: … deferred items") is an argument, not work.
  const [open] = pick(
    all,
    (l) => l.closing && l.cues.includes('open') && l.weighing === undefined && !isJunkTitle(l.text),
    1,
  );
  // Only the list the window ends with says what is still open; earlier lists were worked on.
  const list = isLast ? lastTodoList(turn.events) : undefined;
  return [
    ...(open ? [todo(open.score + 1, open.text, open.event, open.quote)] : []),
    ...(list?.entries
      .filter((e) => !e.done && !isJunkTitle(e.text))
      .slice(0, 3)
      .map((e) => todo(3, e.text, list.event, e.quote)) ?? []),
  ];
}

/**
 * A prompt that only agreed or went ahead ("yes please fix them", "Implement the following
 * plan:"): as "Reported:" it tells a teammate nothing.
 */
const ASSENT = /^(?:(?:yes|yep|yeah|sure|ok(?:ay)?|go ahead|please|do it|sounds good)\b[\s,.!]*)+/i;
/** What an assent may go on to say without naming anything: "fix them", "do it", "go ahead with both". */
const GO_ON =
  /^(?:(?:fix|do|apply|implement|make|commit|push|proceed with|go ahead with)\s+)?(?:it|them|that|this|those|these|all|both|everything)?[\s.!]*$/i;
function onlyAssents(prompt: string): boolean {
  const text = prompt.trim();
  return /:$/.test(text) || (ASSENT.test(text) && GO_ON.test(text.replace(ASSENT, '')));
}

/** What a closed turn teaches: its note or answer, the findings past it, and the work it left open. */
export function fromTurn(turn: Turn, isLast: boolean, settled = false): Proposal[] {
  if (!turn.closed) return [];
  const all = turnLines(turn);
  const edits = editedFiles(turn.events);
  const note = turnNote(turn, all, edits);
  const answered = note || settled ? undefined : answer(turn, all);
  const covered = note?.covered ?? new Set<Line>();
  return [
    ...(note ? [note.proposal] : []),
    ...(answered ? [answered] : []),
    ...findings(all, covered, edits),
    ...openWork(turn, all, isLast),
  ];
}
