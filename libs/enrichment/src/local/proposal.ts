import { ITEM_LIMITS, type EvidenceSpan, type ItemType } from '@memex/domain';
import type { CandidateInput } from '../candidate';
import { areaOf, dedupHintFor, schemaKeyFor } from '../taxonomy';
import { asTitle, normalizeWhitespace, truncateWords } from '../text';

const sameWords = (a: string, b: string) =>
  normalizeWhitespace(a)
    .replace(/[.…!]+$/, '')
    .toLowerCase() ===
  normalizeWhitespace(b)
    .replace(/[.…!]+$/, '')
    .toLowerCase();

/** A candidate with how much it is worth keeping, for the per-window ranking. */
export interface Proposal {
  candidate: CandidateInput;
  salience: number;
}

export interface ProposalContent {
  title: string;
  facts: string;
  /** The words the dedup hint is made of; the title by default. */
  about?: string;
  rationale?: string | null;
  files?: readonly string[];
  importance?: number;
  confidence: number;
  resolved?: boolean;
  evidence: EvidenceSpan[];
}

/**
 * A local proposal, with what follows from its content derived in one place: the title's form,
 * the limits, the schema key and tags from its files, and a dedup hint from its words (not its
 * files' area, so notes on one part of the code stay apart in the brain).
 */
export function propose(salience: number, type: ItemType, content: ProposalContent): Proposal {
  const files = [...new Set(content.files ?? [])].slice(0, ITEM_LIMITS.files);
  return {
    salience,
    candidate: {
      type,
      title: asTitle(content.title, 160),
      facts: truncateWords(content.facts, ITEM_LIMITS.facts),
      // A why that only says the title again says nothing.
      rationale:
        content.rationale && !sameWords(content.rationale, content.title)
          ? truncateWords(content.rationale, ITEM_LIMITS.rationale)
          : null,
      files,
      schemaKey: schemaKeyFor(type, files),
      dedupHint: dedupHintFor(type, content.about ?? content.title),
      tags: areaOf(files).slice(0, 2),
      importance: content.importance ?? 3,
      confidence: content.confidence,
      resolved: content.resolved ?? false,
      evidence: content.evidence,
    },
  };
}
