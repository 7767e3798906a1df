import type { EvidenceSpan } from '@memex/domain';
import type { CandidateItem, EngineEvent } from './candidate';
import { isJunkTitle } from './junk-title';
import { normalizeWhitespace } from './text';

export const MIN_QUOTE_LENGTH = 12;

export type RejectReason = 'event-outside-batch' | 'no-verified-span' | 'junk-title';

export type Verification =
  { ok: true; item: CandidateItem; spans: EvidenceSpan[] } | { ok: false; reason: RejectReason; detail: string };

/** Normalized content of each event of the batch, built once per batch. */
export class EvidenceIndex {
  private readonly contents = new Map<string, string>();

  constructor(events: readonly EngineEvent[]) {
    for (const e of events) this.contents.set(e.eventId, normalizeWhitespace(e.content));
  }

  /**
   * A span counts when its whitespace-normalized quote is at least 12 characters and stands
   * verbatim in the content of the event it names. An item citing any event outside the
   * batch is rejected whole: that is how invented evidence looks.
   */
  verify(item: CandidateItem): Verification {
    // Whichever engine proposed it, shell output or a code line is no note to keep.
    if (isJunkTitle(item.title)) return { ok: false, reason: 'junk-title', detail: 'title reads as output or code' };
    const outside = item.evidence.filter((s) => !this.contents.has(s.eventId));
    if (outside.length > 0) {
      return {
        ok: false,
        reason: 'event-outside-batch',
        detail: `cites ${outside.map((s) => s.eventId).join(', ')}`,
      };
    }
    const spans = item.evidence
      .map((s) => ({ eventId: s.eventId, quote: normalizeWhitespace(s.quote) }))
      .filter((s) => s.quote.length >= MIN_QUOTE_LENGTH && this.contents.get(s.eventId)!.includes(s.quote));
    if (spans.length === 0) {
      return { ok: false, reason: 'no-verified-span', detail: `none of ${item.evidence.length} spans found verbatim` };
    }
    const unique = spans.filter((s, i) => spans.findIndex((o) => o.eventId === s.eventId && o.quote === s.quote) === i);
    return { ok: true, item, spans: unique };
  }
}
