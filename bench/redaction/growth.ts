import type { Redactor } from '@memex/redaction';
import { adversarialUnits, textOfLength } from '../../libs/redaction/src/adversarial.fixture';
import { fmt } from '../support/stats';

/** An event's content as large as ingest takes it, and four times that. */
const SHORT = 99_000;
const LONG = 4 * SHORT;
/** Linear is 4; a cost that grows with the square of the text gives 16. */
const GROWTH_GOAL = 10;
/** Runs shorter than this are timed as this long: a collection of garbage alone takes a few ms. */
const FLOOR_MS = 5;

/** Every rule on the text (all gates open), then the whole redaction with its replacements. */
async function fastest(redactor: Redactor, text: string, runs = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await redactor.findings(text, ~0);
    await redactor.text(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Redaction in linear time, measured on every adversarial text the library knows (repeated
 * prefixes, separators and long runs; libs/redaction/src/adversarial.fixture.ts): the time for
 * 4 × 99,000 characters against 99,000, each the fastest of three runs, so a busy machine slows
 * both sides alike. Prints each ratio and says which, if any, grow faster than the goal allows.
 */
export async function growth(redactor: Redactor): Promise<void> {
  const units = adversarialUnits();
  for (const unit of units) await fastest(redactor, textOfLength(unit, 2000), 1);
  const ratios: Array<[string, number, number]> = [];
  for (const unit of units) {
    const short = await fastest(redactor, textOfLength(unit, SHORT));
    const long = await fastest(redactor, textOfLength(unit, LONG));
    ratios.push([unit, long, long / Math.max(short, FLOOR_MS)]);
  }
  ratios.sort((a, b) => b[2] - a[2]);
  const over = ratios.filter(([, , r]) => r >= GROWTH_GOAL);
  console.log(
    `  growth on ${units.length} adversarial texts, 396,000 ÷ 99,000 characters (linear 4, quadratic 16; goal < ${GROWTH_GOAL}):`,
  );
  for (const [unit, long, ratio] of ratios.slice(0, 5)) {
    console.log(`    ${JSON.stringify(unit.slice(0, 30))}: ${fmt(ratio, 1)} × (${fmt(long, 0)} ms at 396,000)`);
  }
  console.log(
    `    ${over.length === 0 ? 'every one within the goal' : `over the goal: ${over.map(([u]) => JSON.stringify(u)).join(', ')}`}`,
  );
}
