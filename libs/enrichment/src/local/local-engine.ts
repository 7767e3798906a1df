import {
  NO_USAGE,
  candidateItemSchema,
  type CandidateItem,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
  type EnrichmentEngine,
  type ExistingHint,
} from '../candidate';
import { isJunkTitle } from '../junk-title';
import { firstSentence, normalizeWhitespace, pathsIn } from '../text';
import { humanText } from '@memex/entities';
import { memoryTags, type Marker } from './markers';
import { fromCompaction } from './compaction';
import { dialogueChoices } from './dialogue';
import { propose, type Proposal } from './proposal';
import { fromTurn } from './turn-notes';
import { restsOnRejected } from '../retraction';
import { rejectedClosings, turnsOf } from './turns';
import { userRules } from './user-rules';
import { planInPrompt } from './todo-lists';
import { prerequisites, workarounds } from './workarounds';
import { commitStyle } from './commit-style';
import { movedRemote } from './moved-remote';
import { projectFiles } from './project-files';
import { adoptingHints, withoutNearDuplicates } from './near-duplicates';

/** How an item was found sets its confidence: a self-report beats a stated rule beats a reading. */
export const CONFIDENCE = { tag: 0.95, userRule: 0.8 } as const;

/**
 * The store should hold the few things worth knowing: a window keeps its most salient
 * proposals only. Tags the session wrote on purpose always count.
 */
export const MAX_ITEMS_PER_WINDOW = 12;
const MIN_SALIENCE = 3;

/** A proposal's salience on the 0–1 scale items keep: rising fast over the first few cues, then slowly. */
function onScale(score: number): number {
  return score === Infinity ? 1 : Math.round((1 - Math.exp(-score / 8)) * 1000) / 1000;
}

function fromTag(marker: Marker, event: EngineEvent): Proposal {
  const text = normalizeWhitespace(marker.text);
  const because = /\b(?:because|since|so that|due to)\b\s+(.+)$/i.exec(text)?.[1];
  return propose(Infinity, marker.type, {
    title: firstSentence(text, 150),
    facts: text,
    about: text,
    rationale: marker.type === 'Decision' ? because : null,
    files: pathsIn(text),
    confidence: CONFIDENCE.tag,
    resolved: marker.resolved,
    evidence: [{ eventId: event.eventId, quote: marker.quote }],
  });
}

/** The user's rules and choices, in the user's words: what a teammate must not break. */
function fromPrompt(event: EngineEvent, text: string): Proposal[] {
  // A plan the person accepted is the assistant's words: the turn's note tells it as its plan.
  if (planInPrompt(text)) return [];
  return userRules(text)
    .sort((a, b) => b.strength - a.strength)
    .slice(0, 3)
    .map((rule) =>
      propose(rule.strength, rule.type, {
        title: firstSentence(rule.text, 150),
        facts: rule.context,
        about: rule.text,
        rationale: rule.reason ?? null,
        files: pathsIn(rule.context),
        importance: rule.type === 'Convention' ? 4 : 3,
        confidence: CONFIDENCE.userRule,
        evidence: [{ eventId: event.eventId, quote: rule.quote }],
      }),
    );
}

/**
 * Valid candidates, most salient first. Junk titles are also refused when evidence is
 * verified; dropping them here keeps them from taking a ranked place.
 */
function ranked(proposals: readonly Proposal[]): CandidateItem[] {
  const titles = new Set<string>();
  return [...proposals]
    .sort((a, b) => b.salience - a.salience)
    .flatMap((p) => {
      // One statement is one item, whichever rules read it.
      const title = p.candidate.title.toLowerCase();
      if (isJunkTitle(p.candidate.title) || titles.has(title)) return [];
      titles.add(title);
      const parsed = candidateItemSchema.safeParse({ ...p.candidate, salience: onScale(p.salience) });
      return parsed.success ? [parsed.data] : [];
    });
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
 * accepted plans, commits and the commit style `git log` shows, a remote the host says moved,
 * what the project files it opened say of the build (CI steps, package scripts, Python tools),
 * errors followed by edits and passing runs, and explicit
 * `[MEMORY: …]` tags. Proposals are ranked by salience and only the best few are kept.
 */
export function extractLocally(events: readonly EngineEvent[], context: readonly EngineEvent[] = []): CandidateItem[] {
  return readWindow(events, context).candidates;
}

/** The window's candidates, and the events whose conclusions the person rejected. */
export function readWindow(
  events: readonly EngineEvent[],
  context: readonly EngineEvent[] = [],
  hints: readonly ExistingHint[] = [],
  ended = false,
): { candidates: CandidateItem[]; retracted: string[] } {
  const tags: Proposal[] = [];
  for (const event of events) {
    if (event.type !== 'prompt' && event.type !== 'response' && event.type !== 'note') continue;
    for (const marker of memoryTags(humanText(event.content))) tags.push(fromTag(marker, event));
  }
  const turns = turnsOf(context, events, ended);
  const rejected = rejectedClosings(turns);
  const choices = dialogueChoices(turns);
  const proposals: Proposal[] = [...choices.values()];
  turns.forEach((turn, i) => {
    if (!turn.inWindow) return;
    if (turn.prompt && turn.promptInWindow) proposals.push(...fromPrompt(turn.prompt.event, turn.prompt.text));
    // A turn that settled a choice in dialogue answered no question of its own.
    proposals.push(...fromTurn(turn, i === turns.length - 1, choices.has(turn)));
  });
  proposals.push(...workarounds(events), ...prerequisites(events));
  proposals.push(...commitStyle(events), ...movedRemote(events), ...projectFiles(events));
  for (const event of events) proposals.push(...fromCompaction(event));
  const standing = (p: Proposal) => !restsOnRejected(p.candidate.evidence, rejected);
  const kept = ranked(tags);
  const rest = ranked(proposals.filter((p) => p.salience >= MIN_SALIENCE && standing(p)));
  // Tags are what the session chose to record, each as written: only the engine's own readings
  // are folded when they say what another reading or a held item already says.
  const said = new Set(kept.map((c) => c.title.toLowerCase()));
  // Where in the session a candidate was said: its first span, the line its title came from.
  const order = new Map([...context, ...events].map((e, i) => [e.eventId, i]));
  const saidAt = (c: CandidateItem) => order.get(c.evidence[0]?.eventId ?? '') ?? -1;
  const others = adoptingHints(
    withoutNearDuplicates(
      rest.filter((c) => !said.has(c.title.toLowerCase())),
      saidAt,
    ),
    hints,
  );
  return {
    candidates: collapseByHint([...kept, ...others.slice(0, Math.max(0, MAX_ITEMS_PER_WINDOW - kept.length))]),
    retracted: [...rejected],
  };
}

export class LocalEngine implements EnrichmentEngine {
  readonly name = 'local' as const;

  async extract(input: EngineInput): Promise<EngineOutput> {
    const { candidates, retracted } = readWindow(input.events, input.context, input.hints, input.ended);
    return { candidates, retracted, usage: NO_USAGE, calls: 0 };
  }
}
