/** An error signature of the project holding one of the query's words (EntityRepository signaturesHolding). */
export interface SignatureHit {
  word: string;
  signature: string;
  /** Events that named it. */
  mentions: number;
  lastSeenAt: Date | number;
}

/**
 * Signatures held by more than this many of a project's errors make a word too common to
 * choose patterns by ("function", "TypeError" in a project that has seen thousands): the
 * store is asked for one more than this a word, and a word that fills it picks nothing.
 */
export const PATTERN_WORD_SIGNATURES = 50;

/**
 * Which error signatures a pack shows as patterns, best first: those the query quotes, then
 * those holding the most of its selective words (a word held by more than `perWord` of the
 * project's signatures is common and picks none), the most named and the latest first among
 * equals. Deterministic: a common word's hits are a sample of the store's choosing, and are
 * never used.
 */
export function choosePatternSignatures(
  quoted: readonly string[],
  hits: readonly SignatureHit[],
  limit: number,
  perWord: number = PATTERN_WORD_SIGNATURES,
): string[] {
  const perWordCount = new Map<string, number>();
  for (const h of hits) perWordCount.set(h.word, (perWordCount.get(h.word) ?? 0) + 1);
  const selective = hits.filter((h) => (perWordCount.get(h.word) ?? 0) <= perWord);
  const bySignature = new Map<
    string,
    { signature: string; words: Set<string>; mentions: number; lastSeenAt: number }
  >();
  for (const h of selective) {
    const found = bySignature.get(h.signature) ?? {
      signature: h.signature,
      words: new Set<string>(),
      mentions: h.mentions,
      lastSeenAt: new Date(h.lastSeenAt).getTime(),
    };
    found.words.add(h.word);
    bySignature.set(h.signature, found);
  }
  const ranked = [...bySignature.values()]
    .sort(
      (a, b) =>
        b.words.size - a.words.size ||
        b.mentions - a.mentions ||
        b.lastSeenAt - a.lastSeenAt ||
        (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0),
    )
    .map((c) => c.signature);
  return [...new Set([...quoted, ...ranked])].slice(0, limit);
}
