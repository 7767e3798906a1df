import {
  NO_USAGE,
  candidateItemSchema,
  type CandidateItem,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
  type EnrichmentEngine,
} from '../candidate';
import { isJunkTitle } from '../junk-title';
import { areaOf, dedupHintFor, schemaKeyFor } from '../taxonomy';
import { asTitle, firstSentence, normalizeWhitespace, truncateWords } from '../text';
import { humanText } from './human-text';
import { memoryTags, type Marker } from './markers';
import { findings, openWork, turnNote, type Proposal } from './turn-notes';
import { workarounds } from './workarounds';
import { turnsOf } from './turns';
import { userRules } from './user-rules';

/** How an item was found sets its confidence: a self-report beats a stated rule beats a reading. */
export const CONFIDENCE = { tag: 0.95, userRule: 0.8 } as const;

/**
 * The store should hold the few things worth knowing: a window keeps its most salient
 * proposals only. Tags the session wrote on purpose always count.
 */
export const MAX_ITEMS_PER_WINDOW = 8;
const MIN_SALIENCE = 3;
const TAG_SALIENCE = 100;

const PATH_IN_TEXT = /(?:^|[\s`'"(])((?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),.:;])/g;

function pathsIn(text: string): string[] {
  return [...new Set([...text.matchAll(PATH_IN_TEXT)].map((m) => m[1]!))].slice(0, 50);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : truncateWords(text, max);
}

function fromTag(marker: Marker, event: EngineEvent): Proposal {
  const text = normalizeWhitespace(marker.text);
  const files = pathsIn(text);
  const because = /\b(?:because|since|so that|due to)\b\s+(.+)$/i.exec(text)?.[1];
  return {
    salience: TAG_SALIENCE,
    candidate: {
      type: marker.type,
      title: asTitle(firstSentence(text, 150), 150),
      facts: clip(text, 5000),
      rationale: marker.type === 'Decision' && because ? clip(because, 2000) : null,
      files,
      schemaKey: schemaKeyFor(marker.type, files),
      dedupHint: dedupHintFor(marker.type, text, files),
      tags: areaOf(files).slice(0, 2),
      importance: 3,
      confidence: CONFIDENCE.tag,
      resolved: marker.resolved,
      evidence: [{ eventId: event.eventId, quote: marker.quote }],
    },
  };
}

/** The user's rules and choices, in the user's words: what a teammate must not break. */
function fromPrompt(event: EngineEvent, text: string): Proposal[] {
  return userRules(text)
    .slice(0, 2)
    .map((rule) => {
      const files = pathsIn(rule.context);
      return {
        salience: rule.type === 'Convention' ? 6 : 5,
        candidate: {
          type: rule.type,
          title: asTitle(firstSentence(rule.text, 150), 150),
          facts: clip(rule.context, 5000),
          rationale: null,
          files,
          schemaKey: schemaKeyFor(rule.type, files),
          dedupHint: dedupHintFor(rule.type, rule.text, files),
          tags: areaOf(files).slice(0, 2),
          importance: rule.type === 'Convention' ? 4 : 3,
          confidence: CONFIDENCE.userRule,
          evidence: [{ eventId: event.eventId, quote: rule.quote }],
        },
      };
    });
}

function valid(proposal: Proposal): CandidateItem | undefined {
  if (isJunkTitle(proposal.candidate.title)) return undefined;
  const parsed = candidateItemSchema.safeParse(proposal.candidate);
  return parsed.success ? parsed.data : undefined;
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
 * Extraction without any model, built on how a Claude Code session is shaped: turns (the
 * prompt, the work, the assistant's closing message), the user's own rules, todo lists,
 * accepted plans, commits, errors followed by edits and passing runs, and explicit
 * `[MEMORY: …]` tags. Proposals are ranked by salience and only the best few are kept.
 */
export function extractLocally(events: readonly EngineEvent[], context: readonly EngineEvent[] = []): CandidateItem[] {
  const proposals: Proposal[] = [];
  for (const event of events) {
    if (event.type !== 'prompt' && event.type !== 'response' && event.type !== 'note') continue;
    const text = humanText(event.content);
    for (const marker of memoryTags(text)) proposals.push(fromTag(marker, event));
  }
  const turns = turnsOf(context, events);
  turns.forEach((turn, i) => {
    if (turn.prompt && turn.promptInWindow) proposals.push(...fromPrompt(turn.prompt.event, turn.prompt.text));
    const note = turnNote(turn);
    if (note) proposals.push(note);
    proposals.push(...findings(turn, note), ...openWork(turn, i === turns.length - 1));
  });
  proposals.push(...workarounds(events));
  const ranked = proposals
    .filter((p) => p.salience >= MIN_SALIENCE)
    .sort((a, b) => b.salience - a.salience)
    .flatMap((p) => valid(p) ?? []);
  const tagged = ranked.filter((c) => c.confidence === CONFIDENCE.tag);
  const rest = ranked.filter((c) => c.confidence !== CONFIDENCE.tag);
  return collapseByHint([...tagged, ...rest.slice(0, Math.max(0, MAX_ITEMS_PER_WINDOW - tagged.length))]);
}

export class LocalEngine implements EnrichmentEngine {
  readonly name = 'local' as const;

  async extract(input: EngineInput): Promise<EngineOutput> {
    return { candidates: extractLocally(input.events, input.context), usage: NO_USAGE, calls: 0 };
  }
}
