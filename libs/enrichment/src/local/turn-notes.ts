import type { ItemType } from '@memex/domain';
import type { CandidateInput, EngineEvent } from '../candidate';
import { isJunkTitle } from '../junk-title';
import { areaOf, dedupHintFor, schemaKeyFor } from '../taxonomy';
import { asTitle, firstSentence, normalizeWhitespace, significantWords, truncateWords } from '../text';
import { commitOf, editedFile, errorLine, passingRun } from './event-signals';
import { points, sentences } from './human-text';
import { cleanSentence, cuesOf, hasCue, isChatter, sentenceScore, type Cue } from './salience';
import { lastTodoList, planOf } from './todo-lists';
import { assistantTexts, closingMessage, type Turn } from './turns';

/** A candidate with how much it is worth keeping, for the per-window ranking. */
export interface Proposal {
  candidate: CandidateInput;
  salience: number;
}

const MAX_FILES = 50;
const FIX_REQUEST = /\b(?:fix|bug|broken|failing|fails|error|crash\w*|regression|doesn'?t work|not working|wrong)\b/i;
const FACT_CHARS = 900;
const COMMAND_TOOLS = new Set(['Bash', 'bash', 'BashOutput', 'shell', 'run_terminal_cmd']);

interface Line {
  event: EngineEvent;
  quote: string;
  text: string;
  score: number;
  cues: Cue[];
  closing: boolean;
}

/** Sentences of the closing message, and those of earlier texts that state a cause or a choice. */
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

function editedFiles(events: readonly EngineEvent[]): Array<{ file: string; event: EngineEvent }> {
  const seen = new Map<string, EngineEvent>();
  for (const event of events) {
    const file = editedFile(event);
    if (file && !seen.has(file)) seen.set(file, event);
  }
  return [...seen].map(([file, event]) => ({ file, event })).slice(0, MAX_FILES);
}

/** The first error of the turn that edits followed: the symptom of what was fixed. */
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

function typeOf(turn: Turn, picked: readonly Line[], edits: number, commits: number, fixed: boolean): ItemType {
  const cues = new Set(picked.flatMap((l) => l.cues));
  const asksFix = turn.prompt !== undefined && FIX_REQUEST.test(turn.prompt.text);
  if ((edits > 0 || commits > 0) && (cues.has('cause') || fixed || asksFix)) return 'BugFix';
  if (edits > 0 || commits > 0) return 'ImplementationFact';
  if (cues.has('cause')) return 'BugFix';
  if (cues.has('choice')) return 'Decision';
  return 'ArchitectureNote';
}

/** The sentence that best says what the item is, by the cue its type is about. */
const TITLE_CUE: Record<ItemType, Cue> = {
  BugFix: 'cause',
  Decision: 'choice',
  ImplementationFact: 'change',
  ArchitectureNote: 'where',
  Convention: 'choice',
  Todo: 'open',
  CodeMapNode: 'where',
};

function titleLine(picked: readonly Line[], type: ItemType): Line | undefined {
  const usable = picked.filter((l) => !isJunkTitle(l.text));
  const byCue = usable.filter((l) => hasCue(l.text, TITLE_CUE[type]));
  const pool = byCue.length > 0 ? byCue : usable;
  return [...pool].sort((a, b) => b.score - a.score)[0];
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : truncateWords(text, max);
}

/** Lines in their order in the session, best first until the room is spent. */
function pickLines(all: readonly Line[]): Line[] {
  const ranked = [...all].sort((a, b) => b.score - a.score);
  const kept = new Set<Line>();
  let room = FACT_CHARS;
  for (const line of ranked) {
    if (line.text.length + 1 > room) continue;
    if ([...kept].some((k) => k.text === line.text)) continue;
    kept.add(line);
    room -= line.text.length + 1;
  }
  return all.filter((l) => kept.has(l));
}

/**
 * A closed turn as a teammate's note: what was found, chosen or changed (the assistant's own
 * conclusions), what was asked, which files changed, what was committed and checked.
 */
export function turnNote(turn: Turn): Proposal | undefined {
  if (!turn.closed) return undefined;
  const all = lines(turn);
  const picked = pickLines(all);
  const edits = editedFiles(turn.events);
  const seen = new Set<string>();
  const commits = turn.events.flatMap((e) => {
    const info = commitOf(e);
    if (!info || info.message.length < 12 || isJunkTitle(info.message) || seen.has(info.message)) return [];
    seen.add(info.message);
    return [{ event: e, info }];
  });
  const checks = [...new Set(turn.events.map(passingRun).filter((c): c is string => c !== undefined))];
  const error = symptom(turn.events);
  const todos = lastTodoList(turn.events);
  const plan = turn.events.map(planOf).find((p) => p !== undefined);
  const done = todos?.entries.filter((t) => t.done).map((t) => t.text) ?? [];

  const substance = picked.reduce((s, l) => s + l.score, 0);
  // A turn that concluded nothing and changed nothing teaches nothing.
  if (substance < 4 && edits.length === 0 && commits.length === 0) return undefined;

  const type = typeOf(turn, picked, edits.length, commits.length, error !== undefined && checks.length > 0);
  const head = titleLine(picked, type);
  const commitTitle = commits.map((c) => firstSentence(c.info.message, 150)).find((t) => !isJunkTitle(t));
  const first = turn.prompt ? firstSentence(turn.prompt.text, 150) : undefined;
  // "Thanks." or "go on" asked for nothing a note should repeat.
  const asked = first && significantWords(first).length >= 3 ? first : undefined;
  const title = head?.text ?? commitTitle ?? (asked && !isJunkTitle(asked) ? asked : undefined);
  if (!title) return undefined;

  const files = [...new Set([...edits.map((e) => e.file), ...commits.flatMap((c) => c.info.files)])].slice(
    0,
    MAX_FILES,
  );
  // Best first: the brain shows the start of the facts, so the start must carry them.
  const body = [...picked]
    .sort((a, b) => b.score - a.score)
    .filter((l) => l !== head)
    .map((l) => l.text);
  const facts = [
    body.join(' '),
    ...(error && type === 'BugFix' ? [`Symptom: ${error}`] : []),
    ...(files.length > 0 ? [`Changed: ${files.slice(0, 12).join(', ')}${files.length > 12 ? ' …' : ''}`] : []),
    ...(done.length > 0 ? [`Done: ${clip(done.join('; '), 400)}`] : []),
    ...(plan ? [`Plan: ${clip(normalizeWhitespace(plan), 300)}`] : []),
    ...commits.slice(0, 3).map((c) => `Committed: ${firstSentence(c.info.message, 200)}`),
    ...(checks.length > 0 ? [`Checked: ${checks.slice(0, 3).join(', ')} passed.`] : []),
    ...(asked ? [`Asked: ${asked}`] : []),
  ]
    .filter((s) => s.length > 0)
    .join('\n');
  const reason = picked.find((l) => l.cues.includes('reason') || l.cues.includes('cause'));
  const evidence = [
    ...(head ? [{ eventId: head.event.eventId, quote: head.quote }] : []),
    ...picked
      .filter((l) => l !== head)
      .slice(0, 2)
      .map((l) => ({ eventId: l.event.eventId, quote: l.quote })),
    ...(turn.prompt
      ? [{ eventId: turn.prompt.event.eventId, quote: firstSentence(turn.prompt.text, 300).replace(/…$/, '') }]
      : []),
    ...commits
      .slice(0, 1)
      .map((c) => ({ eventId: c.event.eventId, quote: firstSentence(c.info.message, 300).replace(/…$/, '') })),
  ];
  const importance = type === 'BugFix' || type === 'Decision' || files.length >= 3 || commits.length > 0 ? 3 : 2;
  return {
    salience: substance + Math.min(edits.length, 4) + commits.length * 2 + (error ? 2 : 0),
    candidate: {
      type,
      title: asTitle(title, 150),
      // A note that is all headline says it in its facts too.
      facts: clip(facts || head?.text || title, 5000),
      rationale: (type === 'Decision' || type === 'BugFix') && reason ? clip(reason.text, 2000) : null,
      files,
      schemaKey: schemaKeyFor(type, files),
      // Keyed by what was asked, so a turn read again when it closes reinforces its first note;
      // by words, not by area, so notes on one part of the code stay apart in the brain.
      dedupHint: dedupHintFor(type, asked ?? title),
      tags: areaOf(files).slice(0, 2),
      importance,
      confidence: commits.length > 0 ? 0.85 : edits.length > 0 ? 0.75 : 0.65,
      resolved: type === 'BugFix' && checks.length > 0,
      evidence,
    },
  };
}

/** Conclusions stated strongly enough to stand as items of their own. */
const FINDING_SCORE = 4;
const MAX_FINDINGS = 5;
/** What the brain shows of an item's facts on its line: a finding past it needs its own item. */
const SHOWN_CHARS = 300;
const FINDING_TYPE: Array<[Cue, ItemType]> = [
  ['cause', 'BugFix'],
  ['choice', 'Decision'],
  ['open', 'Todo'],
  ['change', 'ImplementationFact'],
  ['insight', 'ArchitectureNote'],
  ['where', 'ArchitectureNote'],
];

/**
 * The turn's conclusions beyond its note's headline: a root cause, a choice and its reason,
 * each its own item so the brain can show it whole.
 */
export function findings(turn: Turn, note: Proposal | undefined): Proposal[] {
  if (!turn.closed) return [];
  const shown = note ? `${note.candidate.title}\n${note.candidate.facts.slice(0, SHOWN_CHARS)}` : '';
  return lines(turn)
    .filter((l) => l.score >= FINDING_SCORE && !shown.includes(l.text.slice(0, 60)) && !isJunkTitle(l.text))
    .flatMap((l) => {
      const type = FINDING_TYPE.find(([cue]) => l.cues.includes(cue))?.[1];
      if (!type) return [];
      const files = l.text.match(/(?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8}/g) ?? [];
      return [
        {
          salience: l.score,
          candidate: {
            type,
            title: asTitle(firstSentence(l.text, 150), 150),
            facts: clip(l.text, 5000),
            rationale: l.cues.includes('reason') ? clip(l.text, 2000) : null,
            files: [...new Set(files)].slice(0, MAX_FILES),
            schemaKey: schemaKeyFor(type, files),
            dedupHint: dedupHintFor(type, l.text),
            tags: areaOf(files).slice(0, 2),
            importance: 3,
            confidence: 0.65,
            evidence: [{ eventId: l.event.eventId, quote: l.quote }],
          },
        },
      ];
    })
    .sort((a, b) => b.salience - a.salience)
    .slice(0, MAX_FINDINGS);
}

/**
 * Work left open when a turn ends: the closing message saying what is still failing or yet to
 * do, and todo list entries not finished.
 */
export function openWork(turn: Turn, isLast: boolean): Proposal[] {
  if (!turn.closed) return [];
  const out: Proposal[] = [];
  const closing = closingMessage(turn);
  if (closing) {
    const open = sentences(closing.text)
      .filter((q) => !isChatter(q) && hasCue(q, 'open') && !isJunkTitle(cleanSentence(q)))
      .sort((a, b) => sentenceScore(b) - sentenceScore(a))[0];
    if (open)
      out.push({ salience: sentenceScore(open) + 2, candidate: todo(cleanSentence(open), closing.event, open) });
  }
  // Only the list the window ends with says what is still open; earlier lists were worked on.
  const list = isLast ? lastTodoList(turn.events) : undefined;
  for (const entry of list?.entries.filter((e) => !e.done).slice(0, 3) ?? []) {
    if (isJunkTitle(entry.text)) continue;
    out.push({ salience: 3, candidate: todo(entry.text, list!.event, entry.quote) });
  }
  return out;
}

function todo(text: string, event: EngineEvent, quote: string): CandidateInput {
  return {
    type: 'Todo',
    title: asTitle(firstSentence(text, 150), 150),
    facts: clip(text, 5000),
    files: [],
    schemaKey: schemaKeyFor('Todo', []),
    dedupHint: dedupHintFor('Todo', text),
    tags: [],
    importance: 3,
    confidence: 0.6,
    evidence: [{ eventId: event.eventId, quote }],
  };
}
