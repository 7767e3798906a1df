/** Words saying what something has become: "is now", "instead of", "renamed", "back to". */
const NEW_STATE =
  /\b(?:is now|are now|now (?:uses?|runs?|calls?|reads?|writes?)|instead of|no longer|renamed|moved to|replaced|switched|back to|reverted)\b/i;

/**
 * "The redirect loop is now fixed", "no longer loops", "now runs green": a report that the work
 * is done says nothing of what the point became, and the first saying holds the cause and fix.
 */
const DONE_NOW =
  /\b(?:(?:is|are) now (?:(?:all |fully )?(?:fixed|resolved|working|passing|green|done|complete|ready|live|deployed|merged|gone|stable))|no longer (?:fails?|failing|loops?|looping|crash(?:es)?|happens?|breaks?|errors?|hangs?|times out|flakes?)|now (?:runs?|works?|builds?|passes) (?:green|fine|again|cleanly|successfully))\b/i;

/**
 * Whether a title says what its point has become ("`manual-release-bun.ts` is now
 * `manual-release.ts` …"): said again later in the session, such a saying is the point's current
 * word, and an earlier one of the same point describes what is no longer so.
 */
export function saysWhatItBecame(title: string): boolean {
  return NEW_STATE.test(title) && !DONE_NOW.test(title);
}
