/** Words saying what something has become: "is now", "instead of", "renamed", "back to". */
const NEW_STATE =
  /\b(?:is now|are now|now (?:uses?|runs?|calls?|reads?|writes?)|instead of|no longer|renamed|moved to|replaced|switched|back to|reverted)\b/i;

/**
 * Whether a title says what its point has become ("`manual-release-bun.ts` is now
 * `manual-release.ts` …"): said again later in the session, such a saying is the point's current
 * word, and an earlier one of the same point describes what is no longer so.
 */
export function saysWhatItBecame(title: string): boolean {
  return NEW_STATE.test(title);
}
