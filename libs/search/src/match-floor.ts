/**
 * What counts as a match at all, so a query about nothing the memory holds finds nothing
 * rather than the least bad items. A full-text hit must match this share of the query's
 * weight (its terms by rarity; see SearchRepository.fullText), a vector hit this cosine and,
 * found by its vector alone, share a content word with the query (`sharesContentWord`).
 * Chosen on the scores bench:retrieval prints for the results answering its questions and
 * for those its nonsense queries got (README, Search).
 */
export const MATCH_FLOOR = { fullText: 0.05, vector: 0.15 } as const;
