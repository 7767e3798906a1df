import type { ItemType } from '@memex/domain';
import {
  NO_USAGE,
  candidateItemSchema,
  type CandidateInput,
  type CandidateItem,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
  type EnrichmentEngine,
} from '../candidate';
import { areaOf, dedupHintFor, schemaKeyFor } from '../taxonomy';
import { asTitle, firstSentence, normalizeWhitespace, significantWords, truncateWords } from '../text';
import { commitOf, editedFile, errorLine, passingRun, type CommitInfo } from './event-signals';
import { humanText, sentences } from './human-text';
import { keywordMarkers, memoryTags, type Marker } from './markers';

/** How an item was found sets its confidence: a self-report beats structure beats a keyword. */
export const CONFIDENCE = {
  tag: 0.95,
  commit: 0.9,
  fixConfirmed: 0.85,
  fix: 0.75,
  task: 0.75,
  keyword: 0.6,
} as const;

const IMPORTANCE: Record<ItemType, number> = {
  Decision: 3,
  Convention: 3,
  BugFix: 3,
  Todo: 2,
  ArchitectureNote: 3,
  ImplementationFact: 2,
  CodeMapNode: 1,
};

/** Choices that shape the whole project score higher (spec: importance calibration). */
const PROJECT_DEFINING =
  /\b(database|postgres(?:ql)?|mysql|mongo(?:db)?|sqlite|redis|kafka|queue|framework|architecture|migrat\w*|auth\w*|graphql|rest api|protocol|language|monorepo|orm)\b/i;

const PROSE_TYPES = new Set(['prompt', 'response', 'note']);
const GREETING = /^\s*(?:hey|hi|hello|ok(?:ay)?|so|now|alright)\b[^,.!]{0,20}[,.!]\s*/i;
const REQUEST_LEAD = /^(?:(?:can|could|would|will) you\s+(?:please\s+)?|please\s+|let's\s+)/i;
const QUESTION_LEAD = /^(?:wait,?\s+)?(?:what|why|how|where|when|which|who|does|do|is|are|was|were|did|should)\b/i;

/**
 * A prompt that can title a task: not a plain question (it asks for an answer, not a
 * change) and not so vague ("fix these") that the title would say nothing.
 */
function saysWhatToDo(prompt: string): boolean {
  const first = firstSentence(prompt.replace(GREETING, ''), 400);
  if (first.endsWith('?') && QUESTION_LEAD.test(first) && !REQUEST_LEAD.test(first)) return false;
  return significantWords(first.replace(REQUEST_LEAD, '')).length >= 3;
}

const FIX_REQUEST = /\b(fix|bug|broken|failing|fails|error|crash\w*|regression)\b/i;
const MAX_FILES = 50;

const PATH_IN_TEXT = /(?:^|[\s`'"(])((?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),.:;])/g;

function pathsIn(text: string): string[] {
  return [...new Set([...text.matchAll(PATH_IN_TEXT)].map((m) => m[1]!))].slice(0, MAX_FILES);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : truncateWords(text, max);
}

function fromMarker(marker: Marker, event: EngineEvent): CandidateInput {
  const text = normalizeWhitespace(marker.text);
  const files = pathsIn(text);
  const body = text.replace(/^(?:decision|convention|architecture(?: note)?|todo|fixme)\s*:\s*/i, '');
  const because = /\b(?:because|since|so that|due to)\b\s+(.+)$/i.exec(body)?.[1];
  let importance = IMPORTANCE[marker.type];
  if (marker.type === 'Decision' && PROJECT_DEFINING.test(body)) importance = 4;
  return {
    type: marker.type,
    title: asTitle(firstSentence(body, 150), 150),
    facts: clip(body, 5000),
    rationale: marker.type === 'Decision' && because ? clip(because, 2000) : null,
    files,
    schemaKey: schemaKeyFor(marker.type, files),
    dedupHint: dedupHintFor(marker.type, body, files),
    tags: areaOf(files).slice(0, 2),
    importance,
    confidence: marker.source === 'tag' ? CONFIDENCE.tag : CONFIDENCE.keyword,
    resolved: marker.resolved,
    evidence: [{ eventId: event.eventId, quote: marker.quote }],
  };
}

interface Segment {
  prompt?: { event: EngineEvent; text: string };
  events: EngineEvent[];
}

/** Events grouped by the human prompt that started them. */
function segmentsOf(events: readonly EngineEvent[]): Segment[] {
  const segments: Segment[] = [{ events: [] }];
  for (const event of events) {
    const text = event.type === 'prompt' ? humanText(event.content) : '';
    if (text.length >= 12) segments.push({ prompt: { event, text }, events: [] });
    else segments[segments.length - 1]!.events.push(event);
  }
  return segments.filter((s) => s.prompt || s.events.length > 0);
}

interface Edit {
  file: string;
  event: EngineEvent;
}

function editsIn(events: readonly EngineEvent[]): Edit[] {
  const seen = new Set<string>();
  const edits: Edit[] = [];
  for (const event of events) {
    const file = editedFile(event);
    if (file && !seen.has(file)) {
      seen.add(file);
      edits.push({ file, event });
    }
  }
  return edits;
}

function editQuote(edit: Edit): { eventId: string; quote: string } {
  const line = edit.event.content.split('\n').find((l) => l.includes(edit.file)) ?? edit.event.content;
  return { eventId: edit.event.eventId, quote: normalizeWhitespace(line).slice(0, 300) };
}

/** An error, then edits, then (perhaps) the check passing: a bug found and fixed. */
function bugFixes(events: readonly EngineEvent[]): { items: CandidateInput[]; claimed: Set<EngineEvent> } {
  const items: CandidateInput[] = [];
  const claimed = new Set<EngineEvent>();
  const signatures = new Set<string>();
  events.forEach((event, index) => {
    const line = errorLine(event);
    if (!line || line.length < 12) return;
    const signature = significantWords(line.replace(/0x[0-9a-f]+|\d+|\/[\w./-]+/gi, ' ')).join('-');
    if (signatures.has(signature)) return;
    const after = events.slice(index + 1);
    const passIndex = after.findIndex(
      (e) => passingRun(e) !== undefined && editsIn(after.slice(0, after.indexOf(e))).length > 0,
    );
    const fixEvents = passIndex >= 0 ? after.slice(0, passIndex) : after;
    const edits = editsIn(fixEvents);
    if (edits.length === 0) return;
    signatures.add(signature);
    const files = edits.map((e) => e.file).slice(0, MAX_FILES);
    const confirmed = passIndex >= 0 ? after[passIndex] : undefined;
    const facts = [
      `Error: ${line}`,
      `Changed: ${files.join(', ')}`,
      confirmed
        ? `Confirmed fixed: ${passingRun(confirmed)} passed afterwards.`
        : 'Not yet confirmed by a passing run.',
    ].join('\n');
    for (const e of [event, ...fixEvents, ...(confirmed ? [confirmed] : [])]) claimed.add(e);
    items.push({
      type: 'BugFix',
      title: asTitle(`Fix: ${line}`, 150),
      facts: clip(facts, 5000),
      files,
      schemaKey: schemaKeyFor('BugFix', files),
      dedupHint: dedupHintFor('BugFix', line.replace(/\d+/g, ' '), files),
      tags: areaOf(files).slice(0, 2),
      importance: IMPORTANCE.BugFix,
      confidence: confirmed ? CONFIDENCE.fixConfirmed : CONFIDENCE.fix,
      resolved: confirmed !== undefined,
      evidence: [{ eventId: event.eventId, quote: line }, editQuote(edits[0]!)],
    });
  });
  return { items, claimed };
}

function commitFacts(commits: readonly { info: CommitInfo }[]): string[] {
  return commits.map(
    (c) => `Committed${c.info.sha ? ` ${c.info.sha.slice(0, 12)}` : ''}: ${firstSentence(c.info.message, 200)}`,
  );
}

/** A prompt followed by edits: what was asked for and which files it changed. */
function tasks(segments: readonly Segment[], claimed: ReadonlySet<EngineEvent>): CandidateInput[] {
  const items: CandidateInput[] = [];
  for (const segment of segments) {
    const commits = segment.events.flatMap((event) => {
      const info = commitOf(event);
      return info && info.message.length >= 12 ? [{ event, info }] : [];
    });
    // A prompt asking for a fix is told by the BugFix item; any other task stands on its own.
    const asksForFix = segment.prompt !== undefined && FIX_REQUEST.test(segment.prompt.text);
    const edits = editsIn(segment.events.filter((e) => !(asksForFix && claimed.has(e))));
    if (segment.prompt && edits.length > 0 && saysWhatToDo(segment.prompt.text)) {
      const files = [...new Set([...edits.map((e) => e.file), ...commits.flatMap((c) => c.info.files)])].slice(
        0,
        MAX_FILES,
      );
      const task = firstSentence(segment.prompt.text.replace(GREETING, ''), 150).replace(REQUEST_LEAD, '');
      const checks = segment.events.map(passingRun).filter((c): c is string => c !== undefined);
      const facts = [
        `Asked: ${clip(normalizeWhitespace(segment.prompt.text), 600)}`,
        `Changed: ${files.join(', ')}`,
        ...commitFacts(commits),
        ...(checks.length > 0 ? [`Checked: ${[...new Set(checks)].join(', ')} passed.`] : []),
      ].join('\n');
      items.push({
        type: 'ImplementationFact',
        title: asTitle(task, 150),
        facts: clip(facts, 5000),
        files,
        schemaKey: schemaKeyFor('ImplementationFact', files),
        dedupHint: dedupHintFor('ImplementationFact', task, files),
        tags: areaOf(files).slice(0, 2),
        importance: files.length >= 3 || commits.length > 0 ? 3 : 2,
        confidence: commits.length > 0 ? CONFIDENCE.commit : CONFIDENCE.task,
        evidence: [
          { eventId: segment.prompt.event.eventId, quote: firstSentence(segment.prompt.text, 300).replace(/…$/, '') },
          editQuote(edits[0]!),
          ...commits.slice(0, 1).map((c) => ({ eventId: c.event.eventId, quote: firstSentence(c.info.message, 300) })),
        ],
      });
    } else {
      for (const { event, info } of commits) {
        const title = firstSentence(info.message, 150);
        items.push({
          type: 'ImplementationFact',
          title: asTitle(title, 150),
          facts: clip(
            commitFacts([{ info }])
              .concat(info.files.length ? [`Files: ${info.files.join(', ')}`] : [])
              .join('\n'),
            5000,
          ),
          files: info.files.slice(0, MAX_FILES),
          schemaKey: schemaKeyFor('ImplementationFact', info.files),
          dedupHint: dedupHintFor('ImplementationFact', title, info.files),
          tags: areaOf(info.files).slice(0, 2),
          importance: 3,
          confidence: CONFIDENCE.commit,
          evidence: [{ eventId: event.eventId, quote: title.replace(/…$/, '') }],
        });
      }
    }
  }
  return items;
}

/** Candidates sharing a dedup hint within one window are one item with all their evidence. */
function collapseByHint(items: CandidateItem[]): CandidateItem[] {
  const byHint = new Map<string, CandidateItem>();
  for (const item of items) {
    const first = byHint.get(item.dedupHint);
    if (!first) byHint.set(item.dedupHint, item);
    else first.evidence = [...first.evidence, ...item.evidence].slice(0, 5);
  }
  return [...byHint.values()];
}

/**
 * Extraction without any model: explicit [MEMORY: …] tags, tool-call structure (tasks and
 * the files they changed, commits, errors that were fixed) and decision / convention / todo /
 * bug markers in what people and the assistant wrote. Reads, searches, listings and passing
 * checks on their own make nothing.
 */
export function extractLocally(events: readonly EngineEvent[]): CandidateItem[] {
  const proposed: CandidateInput[] = [];
  for (const event of events) {
    if (!PROSE_TYPES.has(event.type)) continue;
    const text = humanText(event.content);
    if (!text) continue;
    const tags = memoryTags(text);
    proposed.push(...tags.map((m) => fromMarker(m, event)));
    const untagged = tags.reduce((t, m) => t.replace(m.quote, ' '), text);
    proposed.push(...keywordMarkers(sentences(untagged)).map((m) => fromMarker(m, event)));
  }
  const fixes = bugFixes(events);
  proposed.push(...fixes.items, ...tasks(segmentsOf(events), fixes.claimed));

  const valid = proposed.flatMap((p) => {
    const parsed = candidateItemSchema.safeParse(p);
    return parsed.success ? [parsed.data] : [];
  });
  return collapseByHint(valid);
}

export class LocalEngine implements EnrichmentEngine {
  readonly name = 'local' as const;

  async extract(input: EngineInput): Promise<EngineOutput> {
    return { candidates: extractLocally(input.events), usage: NO_USAGE, calls: 0 };
  }
}
