import { SessionFixture, verifiedItems as extract } from './session-fixture';

const session = () => new SessionFixture();

/** A turn that diagnoses mid-work, tries, and diagnoses again (shaped on obsessiondb-chkit's). */
const diagnosedTwice = (between: string) =>
  session()
    .prompt('typecheck fails in CI but passes locally, can you fix it?')
    .say(
      'The root cause: `codegen/tsconfig.json` has `paths` pointing to `../core/src/index`, so TypeScript reads the declaration files of `dist` instead.',
    )
    .bash('npx tsc --noEmit --traceResolution | grep @chkit/core', 'Resolving module @chkit/core … exports …')
    .say(between)
    .edit('tsconfig.base.json')
    .bash('npm run typecheck', 'ok')
    .say(
      'Root cause: with `moduleResolution: "NodeNext"`, `paths` entries never add the `.ts` extension, so `@chkit/core` resolved through `exports` to `dist`. Fixed by adding `"customConditions": ["source"]` to `tsconfig.base.json`.',
    );

describe('a diagnosis the turn replaced', () => {
  it('is not kept when a later message of the turn gives another: the last one is what the work found', () => {
    const said = extract(diagnosedTwice('Checking how the resolution actually goes.')).map(
      (i) => `${i.title} ${i.facts}`,
    );
    expect(said.some((t) => t.includes('customConditions'))).toBe(true);
    expect(said.some((t) => t.includes('`paths` pointing to'))).toBe(false);
  });

  it('is kept when no later message of the turn diagnoses again', () => {
    const alone = extract(
      session()
        .prompt('why does the release hang?')
        .say('The issue is that `bun publish` has no npm authentication token, so it waits for a browser login.')
        .edit('scripts/release.ts')
        .say(
          'I set `NPM_CONFIG_TOKEN` from Doppler in `scripts/release.ts`, so `bun publish` no longer waits for a login.',
        ),
    ).map((i) => `${i.title} ${i.facts}`);
    expect(alone.some((t) => t.includes('no npm authentication token'))).toBe(true);
  });
});
