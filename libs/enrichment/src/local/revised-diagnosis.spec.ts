import { SessionFixture, verifiedItems as extract } from './session-fixture';

const session = () => new SessionFixture();

/** What a turn's items say, title and facts. */
const said = (s: SessionFixture) => extract(s).map((i) => `${i.title} ${i.facts}`);

/** A turn that diagnoses mid-work, tries, and says `later` before closing (shaped on obsessiondb-chkit's). */
const diagnosedThen = (later: string, closing = 'Typecheck passes in CI and locally now.') =>
  session()
    .prompt('typecheck fails in CI but passes locally, can you fix it?')
    .say(
      'The root cause: `codegen/tsconfig.json` has `paths` pointing to `../core/src/index`, so TypeScript reads the declaration files of `dist` instead.',
    )
    .bash('npx tsc --noEmit --traceResolution | grep @chkit/core', 'Resolving module @chkit/core … exports …')
    .say(later)
    .edit('tsconfig.base.json')
    .bash('npm run typecheck', 'ok')
    .say(closing);

const FIRST = '`paths` pointing to';

describe('a diagnosis the turn replaced', () => {
  it('is not kept when a later message of the turn gives another: the last one is what the work found', () => {
    const items = said(
      diagnosedThen(
        'Checking how the resolution actually goes.',
        'Root cause: with `moduleResolution: "NodeNext"`, `paths` entries never add the `.ts` extension, so `@chkit/core` resolved through `exports` to `dist`. Fixed by adding `"customConditions": ["source"]` to `tsconfig.base.json`.',
      ),
    );
    expect(items.some((t) => t.includes('customConditions'))).toBe(true);
    expect(items.some((t) => t.includes(FIRST))).toBe(false);
  });

  it('is kept when no later message of the turn diagnoses again', () => {
    const items = said(
      session()
        .prompt('why does the release hang?')
        .say('The issue is that `bun publish` has no npm authentication token, so it waits for a browser login.')
        .edit('scripts/release.ts')
        .say(
          'I set `NPM_CONFIG_TOKEN` from Doppler in `scripts/release.ts`, so `bun publish` no longer waits for a login.',
        ),
    );
    expect(items.some((t) => t.includes('no npm authentication token'))).toBe(true);
  });

  it.each([
    ['a guess', 'The root cause is likely also the CDN caching the old `index.html` for an hour.'],
    ['a denial', 'The CDN cache is not the root cause here: with the cache purged the build still fails.'],
    ['another problem', 'The second failure has a different root cause: `core/package.json` lacks a `types` entry.'],
    ['the work reported done', 'The issue is now fixed: `tsc --noEmit` resolves the workspace packages.'],
  ])('is kept when what a later message says is %s, not another diagnosis', (_, later) => {
    expect(said(diagnosedThen(later)).some((t) => t.includes(FIRST))).toBe(true);
  });
});
