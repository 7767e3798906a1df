import { cleanSentence, cuesOf, guesses, isStatusFluff, leansOnWhatCameBefore, sentenceScore } from './salience';

const POINTING_BACK = [
  'It only worked locally because you had a `dist` from a previous build.',
  "It's a tradeoff: corruption vs growing `.git` size.",
  'That tells macOS to reload all preferences.',
  'These look like pre-existing issues on `main` rather than something this PR introduced.',
  'Or add it to the `post-commit` hook, the safest moment.',
  'This might make the script much simpler.',
  '**Yep** — `declaration: true` and `declarationMap: true`.',
];

const STANDING_ALONE = [
  'This PR adds a deploy workflow and the wrangler dependency.',
  'That function is only called from the CLI entry point.',
  'Then the trigger is `activateSettings -u`, which nix-darwin runs on every switch.',
  'Items are deduplicated by their hint before they are stored.',
  'Iterating over the list twice is wasteful.',
];

describe('leansOnWhatCameBefore', () => {
  it.each([
    ...POINTING_BACK.map((sentence) => ({
      sentence,
      leans: true,
      reading: 'pointing back, with no subject of its own',
    })),
    ...STANDING_ALONE.map((sentence) => ({ sentence, leans: false, reading: 'standing on its own' })),
  ])('reads "$sentence" as $reading', ({ sentence, leans }) => {
    expect(leansOnWhatCameBefore(sentence)).toBe(leans);
  });
});

describe('sentenceScore', () => {
  it('gives talk about the conversation itself nothing, whatever cues it carries', () => {
    expect(
      sentenceScore('You renamed this session to "kiki" with `/rename kiki` earlier, which is why it resumed.'),
    ).toBe(0);
    expect(
      sentenceScore(
        "The system reminders you're seeing are just the IDE noting that `server.go` was modified, not committed.",
      ),
    ).toBe(0);
  });

  it('still scores a sentence about the project that names the same files', () => {
    expect(
      sentenceScore('The server now reads `config.yaml` at start because the flags were ignored.'),
    ).toBeGreaterThan(0);
  });
});

describe('cuesOf', () => {
  it.each([
    'The release script now auto-commits and pushes after a successful publish.',
    'When the database has `unit = "CPS"`, the server now corrects it to `"CPM"` in the response',
    'The script now prompts for your npm OTP once before publishing',
  ])('reads what something now does as a change: %s', (sentence) => {
    expect(cuesOf(sentence)).toContain('change');
  });

  it.each([
    'And now this part of the session is over',
    'The old name and now its alias both resolve',
    'The workflow now passes completely',
    'It now always starts slow',
    'For now tests are skipped on CI',
    'Right now requests time out after 10 s',
    'Until now users had to sign in twice',
    'Now things look fine on the staging box',
    'The test now fails on CI',
    'It now seems stuck at the lock',
  ])('reads no change in a "now" that says none: %s', (sentence) => {
    expect(cuesOf(sentence)).not.toContain('change');
  });

  it('reads what is left to do as open, and what "the remaining" part is as no open work', () => {
    expect(cuesOf('Remaining feedback for future consideration: backpressure handling, test coverage')).toContain(
      'open',
    );
    expect(cuesOf('The remaining failures are in the streaming tests')).toContain('open');
    expect(cuesOf('The remaining test failures are in `stream.spec.ts`')).toContain('open');
    expect(cuesOf('Markdownlint shows 3 pre-existing warnings in the mermaid skill')).toContain('open');
    expect(cuesOf('The migration backfills pre-existing rows with `false`, so old queries keep working')).not.toContain(
      'open',
    );
    expect(cuesOf('The remaining ~20ms is the `machineid.ProtectedID()` call')).not.toContain('open');
    expect(cuesOf('The remaining uncommitted file (`go/mcp-server`) is just the compiled binary')).not.toContain(
      'open',
    );
  });
});

describe('guesses', () => {
  it('tells a guess from a conclusion', () => {
    expect(
      guesses('Since you were using Claude CLI directly on the map server, the issue is likely the unit field'),
    ).toBe(true);
    expect(guesses("I'd lean toward Option 3 (custom agent) because you need tight control over the loop")).toBe(true);
    expect(guesses('Fixed the possibly-unbound-attribute warning with an assert before `cached_data.version`')).toBe(
      false,
    );
    expect(guesses('The cleanest fix is probably to make the CLI run `git gc` itself at a safe point')).toBe(false);
    expect(guesses('I’d lean toward Option 4, the hybrid, for its control of the agent loop')).toBe(true);
    // A fix handed back to be tried is a prediction, until the person runs it.
    expect(guesses('This should fix it by:')).toBe(true);
    expect(guesses('Pinning Node 20 should resolve the error on CI')).toBe(true);
    expect(guesses('Tests should pass once `CLICKHOUSE_URL` is set')).toBe(false);
    // A rule of the code stated with "may" is no guess.
    expect(guesses('Note that `sessionId` may be null for compacted sessions, so `reinforce()` must check it')).toBe(
      false,
    );
  });
});

describe('isStatusFluff', () => {
  it.each([
    {
      sentence: "Main branch had linting errors, but now it's fixed, so the next CI run should pass",
      fluff: true,
      reading: 'status: a run predicted to pass, which the next session knows the outcome of',
    },
    {
      sentence: 'CI should pass now since typecheck no longer depends on `dist/` existing',
      fluff: false,
      reading: 'a finding: why it will pass',
    },
    {
      sentence: 'The e2e run should pass once `CLICKHOUSE_URL` is set in the CI secrets',
      fluff: false,
      reading: 'a finding: what it needs to pass',
    },
    {
      sentence: 'Tests should pass on Node 20 but fail on Node 18, where global `fetch` is missing',
      fluff: false,
      reading: 'a finding: where it passes and where not',
    },
  ])('reads "$sentence" as $reading', ({ sentence, fluff }) => {
    expect(isStatusFluff(sentence)).toBe(fluff);
  });
});

describe('cleanSentence', () => {
  it.each([
    [
      '**1. Authentication Bug Fixed** - Added back `requireUser()`',
      'Authentication Bug Fixed - Added back `requireUser()`',
    ],
    ['2) Pinned Node 20 in the workflow', 'Pinned Node 20 in the workflow'],
    ['✅ **3. Security Enhanced** - 100KB limit', 'Security Enhanced - 100KB limit'],
    // A number that says something stays: a count, a version.
    ['2 tests fail on Node 18', '2 tests fail on Node 18'],
    ['1.2.4 fixes the redirect loop', '1.2.4 fixes the redirect loop'],
  ])('reads %j without its markup and its place in the message', (sentence, clean) => {
    expect(cleanSentence(sentence)).toBe(clean);
  });
});
