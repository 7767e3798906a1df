import { Redactor } from './redactor';
import { adversarialUnits, textOfLength } from './adversarial.fixture';
import { nearMisses, secretCorpus } from './secret-corpus.fixture';

/**
 * Redaction's cost grows in proportion to the text, whatever the text: no rule may read the
 * rest of a text again at each of its separators or prefixes (a backtracking regular
 * expression, a search to the end of the line). Measured as ratios only, each the fastest of a
 * few runs, so a busy machine slows both sides alike: redacting 4n characters of an
 * adversarial text against n (linear: about 4; quadratic: about 16), and 99,000 characters of
 * it (an event's content at its largest) against as much ordinary session text with secrets.
 */
const redactor = new Redactor();
const ALL_GATES = ~0;
/** An event's content as large as ingest takes it, and four times that. */
const SHORT = 99_000;
const LONG = 4 * SHORT;
/**
 * Linear is 4; a rule whose cost grows with the square of the text gives 16. 10 leaves room
 * for a busy machine (a collection of garbage in one run of the longer text and not the
 * other gave up to 9 on two shared cores) and still fails any quadratic cost.
 */
const MAX_GROWTH = 10;
/**
 * How much slower than ordinary text an adversarial text may be. Ordinary text with secrets
 * runs every rule and secretlint; the worst adversarial texts are those with a finding every
 * few characters (`AKIA…` ids one after another), which pay for each finding.
 */
const MAX_ADVERSARIAL_RATIO = 20;
/**
 * Below this a run is too short to time on a busy machine (a collection of garbage alone
 * takes a few milliseconds): its ratio is taken against this much. A rule whose cost grows
 * faster than the text but stays under it at 99,000 characters is harmless within ingest's
 * limit of 100 KB an event.
 */
const FLOOR_MS = 5;

/** Every rule on the text (all gates open), then the whole redaction with its replacements. */
async function work(text: string): Promise<void> {
  await redactor.findings(text, ALL_GATES);
  await redactor.text(text);
}

async function fastest(text: string, runs = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

beforeAll(async () => {
  await redactor.warm();
  // The first runs of each expression are compiled and optimised: not what is measured.
  for (const unit of adversarialUnits()) await work(textOfLength(unit, 2000));
});

describe('redaction time', () => {
  jest.setTimeout(60_000);

  it.each(adversarialUnits().map((unit) => [JSON.stringify(unit), unit] as const))(
    'grows linearly with repeated %s',
    async (_, unit) => {
      const short = await fastest(textOfLength(unit, SHORT));
      const long = await fastest(textOfLength(unit, LONG));
      expect(long / Math.max(short, FLOOR_MS)).toBeLessThan(MAX_GROWTH);
    },
  );

  it('is bounded on 99,000 characters of any of them, against ordinary text with secrets of that size', async () => {
    const ordinary = textOfLength(
      [...secretCorpus().map((s) => s.text), ...nearMisses().map((n) => n.text)].join('\n\n') + '\n\n',
      SHORT,
    );
    const reference = Math.max(await fastest(ordinary), FLOOR_MS);
    const over: Array<[string, number]> = [];
    for (const unit of adversarialUnits()) {
      const ratio = (await fastest(textOfLength(unit, SHORT), 2)) / reference;
      if (ratio >= MAX_ADVERSARIAL_RATIO) over.push([unit, Math.round(ratio)]);
    }
    expect(over).toEqual([]);
  });
});
