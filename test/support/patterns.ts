import type { EntityRepository } from '@memex/db';
import { PATTERN_WORD_SIGNATURES, choosePatternSignatures } from '@memex/search';

/** The error patterns a context pack would show for a query holding `word`, as PackSources finds them. */
export async function patternsHolding(store: EntityRepository, projectId: string, word: string) {
  const hits = await store.signaturesHolding(projectId, [word], PATTERN_WORD_SIGNATURES + 1);
  return store.patterns(projectId, choosePatternSignatures([], hits, 5));
}
