import type { ItemType } from '@memex/domain';
import type { EngineEvent } from '../candidate';
import { isJunkTitle } from '../junk-title';
import { firstSentence, normalizeWhitespace, pathsIn, significantWords, truncateWords } from '../text';
import { COMMAND_TOOLS, commitOf, editedFile, errorLine, passingRun } from './event-signals';
import { points } from './human-text';
import { propose, type Proposal } from './proposal';
import { cleanSentence, cuesOf, hasCue, sentenceScore, type Cue } from './salience';
import { lastTodoList, planOf } from './todo-lists';
import { assistantTexts, closingMessage, type Turn } from './turns';

const FIX_REQUEST = /\b(?:fix|bug|broken|failing|fails|error|crash\w*|regression|doesn'?t work|not working|wrong)\b/i;
/** Room for a note's conclusions; the brain line shows the first SHOWN_CHARS of them. */
const FACT_CHARS = 900;
const SHOWN_CHARS = 300;
/** Conclusions stated strongly enough to stand as items of their own. */
const FINDING_SCORE = 4;
const MAX_FINDINGS = 5;
const FINDING_TYPE: Array<[Cue, ItemType]> = [
  ['cause', 'BugFix'],
  ['choice', 'Decision'],
  ['open', 'Todo'],
  ['change', 'ImplementationFact'],
  ['insight', 'ArchitectureNote'],
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

interface Line {
  event: EngineEvent;
  quote: string;
  text: string;
  score: number;
  cues: Cue[];
  closing: boolean;
}

/** Points of the closing message, and those of earlier texts that state a cause or a choice. */
function lines(turn: Turn): Line[] {
  const closing = closingMessage(turn);
  return assistantTexts(turn).flatMap(({ event, text }) => {
    const isClosing = event === closing?.event;
    return points(text).flatMap(({ quote, text: said }) => {
      // A [MEMORY: …] tag is an item of its own.
      if (said.includes('[MEMORY:')) return [];
      const clean = cleanSentence(said);
      const cues = cuesOf(clean);
      const score = sentenceScore(said);
      if (score === 0) return [];
      if (!isClosing && !cues.includes('cause') && !cues.includes('choice')) return [];
      return [{ event, quote, text: clean, score: isClosing ? score + 1 : score, cues, closing: isClosing }];
    });
  });
}

/** The best lines first, as many as the room takes, each text once. */
function pickLines(all: readonly Line[]): Line[] {
  const kept: Line[] = [];
  const texts = new Set<string>();
  let room = FACT_CHARS;
  for (const line of [...all].sort((a, b) => b.score - a.score)) {
    if (line.text.length + 1 > room || texts.has(line.text)) continue;
    kept.push(line);
    texts.add(line.text);
    room -= line.text.length + 1;
  }
  return kept;
}

function editedFiles(events: readonly EngineEvent[]): string[] {
  return [...new Set(events.map(editedFile).filter((f): f is string => f !== undefined))];
}

/** The first failed command of the turn that edits followed: the symptom of what was fixed. */
function symptom(events: readonly EngineEvent[]): string | undefined {
  for (let i = 0; i < events.length; i += 1) {
    // A web fetch or a tool the assistant misused failing is not a bug in the project.
    const tool = events[i]!.metadata?.tool;
    if (typeof tool === 'string' && !COMMAND_TOOLS.has(tool)) continue;
    const line = errorLine(events[i]!);
    if (!line || isJunkTitle(line)) continue;
    if (events.slice(i + 1).some((e) => editedFile(e) !== undefined)) return line;
  }
  return undefined;
}

function typeOf(turn: Turn, picked: readonly Line[], changed: boolean, fixed: boolean): ItemType {
  const cues = new Set(picked.flatMap((l) => l.cues));
  const asksFix = turn.prompt !== undefined && FIX_REQUEST.test(turn.prompt.text);
  if (changed && (cues.has('cause') || fixed || asksFix)) return 'BugFix';
  if (changed) return 'ImplementationFact';
  if (cues.has('cause')) return 'BugFix';
  if (cues.has('choice')) return 'Decision';
  return 'ArchitectureNote';
}

function titleLine(picked: readonly Line[], type: ItemType): Line | undefined {
  const usable = picked.filter((l) => !isJunkTitle(l.text));
  const byCue = usable.filter((l) => hasCue(l.text, TITLE_CUE[type]));
  return (byCue.length > 0 ? byCue : usable)[0];
}

/**
 * A closed turn as a teammate's note: what was found, chosen or changed (the assistant's own
 * conclusions, best first), the symptom, which files changed, the todo entries finished, the
 * plan, what was committed and checked, and what was asked.
 */
function turnNote(turn: Turn, all: readonly Line[]): Proposal | undefined {
  const picked = pickLines(all);
  const edits = editedFiles(turn.events);
  const messages = new Set<string>();
  const commits = turn.events.flatMap((e) => {
    const info = commitOf(e);
    if (!info || info.message.length < 12 || isJunkTitle(info.message) || messages.has(info.message)) return [];
    messages.add(info.message);
    return [{ event: e, info }];
  });
  const checks = [...new Set(turn.events.map(passingRun).filter((c): c is string => c !== undefined))];
  const error = symptom(turn.events);
  const done =
    lastTodoList(turn.events)
      ?.entries.filter((t) => t.done)
      .map((t) => t.text) ?? [];
  const plan = turn.events.map(planOf).find((p) => p !== undefined);

  const substance = picked.reduce((s, l) => s + l.score, 0);
  const changed = edits.length > 0 || commits.length > 0;
  // A turn that concluded nothing and changed nothing teaches nothing.
  if (substance < 4 && !changed) return undefined;

  const type = typeOf(turn, picked, changed, error !== undefined && checks.length > 0);
  const head = titleLine(picked, type);
  const commitTitle = commits.map((c) => firstSentence(c.info.message, 150)).find((t) => !isJunkTitle(t));
  const first = turn.prompt ? firstSentence(turn.prompt.text, 150) : undefined;
  // "Thanks." or "go on" asked for nothing a note should repeat.
  const asked = first && significantWords(first).length >= 3 ? first : undefined;
  const title = head?.text ?? commitTitle ?? (asked && !isJunkTitle(asked) ? asked : undefined);
  if (!title) return undefined;

  const files = [...new Set([...edits, ...commits.flatMap((c) => c.info.files)])];
  const rest = picked.filter((l) => l !== head);
  const facts = [
    rest.map((l) => l.text).join(' '),
    ...(error && type === 'BugFix' ? [`Symptom: ${error}`] : []),
    ...(files.length > 0 ? [`Changed: ${files.slice(0, 12).join(', ')}${files.length > 12 ? ' …' : ''}`] : []),
    ...(done.length > 0 ? [`Done: ${truncateWords(done.join('; '), 400)}`] : []),
    ...(plan ? [`Plan: ${truncateWords(normalizeWhitespace(plan), 300)}`] : []),
    ...commits.slice(0, 3).map((c) => `Committed: ${firstSentence(c.info.message, 200)}`),
    ...(checks.length > 0 ? [`Checked: ${checks.slice(0, 3).join(', ')} passed.`] : []),
    ...(asked ? [`Asked: ${asked}`] : []),
  ]
    .filter((s) => s.length > 0)
    .join('\n');
  const reason = picked.find((l) => l.cues.includes('reason') || l.cues.includes('cause'));
  const quoted = (event: EngineEvent, text: string) => ({
    eventId: event.eventId,
    quote: firstSentence(text, 300).replace(/…$/, ''),
  });
  return propose(substance + Math.min(edits.length, 4) + commits.length * 2 + (error ? 2 : 0), type, {
    title,
    // A note that is all headline says it in its facts too.
    facts: facts || title,
    // Keyed by what was asked, so a turn read again when it closes reinforces its first note.
    about: asked ?? title,
    rationale: (type === 'Decision' || type === 'BugFix') && reason ? reason.text : null,
    files,
    importance: type === 'BugFix' || type === 'Decision' || files.length >= 3 || commits.length > 0 ? 3 : 2,
    confidence: commits.length > 0 ? 0.85 : edits.length > 0 ? 0.75 : 0.65,
    resolved: type === 'BugFix' && checks.length > 0,
    evidence: [
      ...[head, ...rest.slice(0, 2)].flatMap((l) => (l ? [{ eventId: l.event.eventId, quote: l.quote }] : [])),
      ...(turn.prompt ? [quoted(turn.prompt.event, turn.prompt.text)] : []),
      ...commits.slice(0, 1).map((c) => quoted(c.event, c.info.message)),
    ],
  });
}

/**
 * The turn's conclusions beyond what its note's brain line shows: a root cause, a choice, a
 * change, each its own item so the brain can show it whole.
 */
function findings(all: readonly Line[], note: Proposal | undefined): Proposal[] {
  const shown = note ? `${note.candidate.title}\n${note.candidate.facts.slice(0, SHOWN_CHARS)}` : '';
  return all
    .filter((l) => l.score >= FINDING_SCORE && !shown.includes(l.text.slice(0, 60)) && !isJunkTitle(l.text))
    .flatMap((l) => {
      const type = FINDING_TYPE.find(([cue]) => l.cues.includes(cue))?.[1];
      if (!type) return [];
      return [
        propose(l.score, type, {
          title: firstSentence(l.text, 150),
          facts: l.text,
          about: l.text,
          rationale: l.cues.includes('reason') ? l.text : null,
          files: pathsIn(l.text),
          confidence: 0.65,
          evidence: [{ eventId: l.event.eventId, quote: l.quote }],
        }),
      ];
    })
    .sort((a, b) => b.salience - a.salience)
    .slice(0, MAX_FINDINGS);
}

function todo(salience: number, text: string, event: EngineEvent, quote: string): Proposal {
  return propose(salience, 'Todo', {
    title: firstSentence(text, 150),
    facts: text,
    about: text,
    confidence: 0.6,
    evidence: [{ eventId: event.eventId, quote }],
  });
}

/**
 * Work left open when a turn ends: what the closing message says is still failing or yet to
 * do, and the entries the window's last todo list leaves unfinished.
 */
function openWork(turn: Turn, all: readonly Line[], isLast: boolean): Proposal[] {
  const open = all
    .filter((l) => l.closing && l.cues.includes('open') && !isJunkTitle(l.text))
    .sort((a, b) => b.score - a.score)[0];
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

/** What a closed turn teaches: its note, the findings past it, and the work it left open. */
export function fromTurn(turn: Turn, isLast: boolean): Proposal[] {
  if (!turn.closed) return [];
  const all = lines(turn);
  const note = turnNote(turn, all);
  return [...(note ? [note] : []), ...findings(all, note), ...openWork(turn, all, isLast)];
}
