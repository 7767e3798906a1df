import { extractLocally } from './local-engine';
import { SessionFixture } from './session-fixture';
import { userRules } from './user-rules';

describe('the person’s rules', () => {
  it('keeps the reason given after a veto', () => {
    const [rule] = userRules(
      "Don't add a name: field to SKILL.md. The loader derives it from the folder, so it would drift.",
    );
    expect(rule).toMatchObject({
      type: 'Convention',
      reason: 'The loader derives it from the folder, so it would drift.',
    });
  });

  it('tells a veto and what is wanted instead as one rule; rules of one sign in a row stay apart', () => {
    const rules = userRules(
      "we explicitly don't want hardcoded visual tests. crash detection is boring and table stakes. we want the judgement of the ai, as a person looking at a screenshot would.",
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ type: 'Decision', text: "We explicitly don't want hardcoded visual tests." });
    expect(rules[0]!.context).toContain('we want the judgement of the ai');
    expect(userRules('Always run the linter before a commit. Never push to main directly.')).toHaveLength(2);
  });

  it('counts branch and workflow rules', () => {
    expect(userRules('Please work off the phase-12 branch for all of this.')[0]?.type).toBe('Decision');
    expect(userRules('Next time you make changes to the code, let me commit.')[0]?.type).toBe('Convention');
  });

  it('takes a request for a report on this task for no rule', () => {
    expect(userRules('Dont necessary fix it, just check it let me know why its flaky, and why its important')).toEqual(
      [],
    );
    expect(userRules('Always run the e2e suite before a release, and let me know if it fails.')[0]?.type).toBe(
      'Convention',
    );
  });

  it('takes an answer picking an offered option for no rule: the option is the decision', () => {
    expect(userRules("ok let's do 1 and create a PR")).toEqual([]);
    expect(userRules("ok let's use apple container instead of docker")[0]?.type).toBe('Decision');
  });

  describe('in a review the person hands on', () => {
    // As obra-episodic-memory's session pasted a bot's review of its pull request.
    const review = '### Recommendation\n\nRequest Changes - The authentication bug must be fixed before merging.';
    it.each([
      'Code Review for PR #17: Fix Streaming Platform Issues',
      '## Code Review for PR #17',
      'pr feedback:',
      'more reviewer feedback:',
      'Here is the review feedback:',
    ])("takes no rule under %j: its demands are the reviewer's", (header) => {
      expect(userRules(`${header}\n\n${review}`)).toEqual([]);
    });
  });

  describe("a review bot's comment passed on as written", () => {
    it.each([
      // Real (obra-episodic-memory): CodeRabbit's prompt for an agent, pasted as the prompt.
      'In app/routes/api.plan-stream.ts around lines 76 to 82, the abort listener\ncurrently awaits cleanup which can cause unhandled rejections and leaks; change\nthe listener to be one-shot and do not await the destroy call —\ninstead invoke the destroySession and attach a .catch(...) to log errors (or\nhandle them) so errors are surfaced but not awaited.',
      // Its wording since, with the lead-in it puts first.
      'Verify each finding against the current code and only fix it if needed.\n\nIn `@src/cli/supervisor-runtime.ts` around lines 165 - 168, After awaiting pollIntervalMs() re-check shouldStop; we should never sleep after a stop.',
      'Fix the following issues.\n\n- Verify each finding against the current code and only fix it if needed.\n\nIn @backend/app/api/crawls.py around lines 674 - 676, never let the poll interval be None.',
      'Verify each finding against the current code and only fix it if needed.\n\nInline comments:\nIn `@docs/notes/general.md`:\n- Line 5: Revert the manual change; always let Dendron manage the timestamps.',
    ])('takes no rule from %j: its demands are the reviewer’s', (comment) => {
      expect(userRules(comment)).toEqual([]);
    });

    it.each(['In this repo we always run the linter before a commit.', 'In package.json: always pin exact versions.'])(
      'reads the rule in %j, which only opens like one',
      (prompt) => {
        expect(userRules(prompt)).not.toEqual([]);
      },
    );
  });

  it.each([
    'code review the changes in src/auth. We always use zod for validation, never hand-written checks.',
    'Code review feedback should always go in a separate commit, never amended.',
    'The code review bot is noisy; from now on ignore its style comments.',
    'PR comments must always be answered in English.',
  ])('reads the rule in %j: it speaks of reviews, it hands none on', (prompt) => {
    expect(userRules(prompt)).not.toEqual([]);
  });

  it('reads a request the person argues for, under a line saying the reasons follow, as one choice with its reason', () => {
    // Real (tslateman-duet): the reasons are why, not choices ("rather than" of a metaphor).
    const rules = userRules(
      [
        'rename /whats-next to /vamp',
        'rationale:',
        '',
        '  The case for vamp',
        '',
        '  - Jazz-native: vamping is what musicians do between sections — repeat a figure while listening, deciding what to play next. That’s exactly the',
        '  moment this skill serves: you’re between tasks, surveying the project, choosing where to go',
        '  - Fits the "duet" namespace — deepens the music metaphor rather than just sitting beside it',
        '  - Imperative verb, one syllable, distinctive among siblings',
      ].join('\n'),
    );
    expect(rules).toEqual([
      expect.objectContaining({
        type: 'Decision',
        text: 'Rename /whats-next to /vamp',
        quote: 'rename /whats-next to /vamp',
        // The line heading the list ("The case for vamp") is no reason of its own; the second
        // reason does not fit beside the first in 300 characters.
        reason:
          'Jazz-native: vamping is what musicians do between sections — repeat a figure while listening, deciding what to play next. That’s exactly the moment this skill serves: you’re between tasks, surveying the project, choosing where to go',
      }),
    ]);
    expect(userRules('Always squash before merging.\n**Why:**\n- the changelog is built from merge commits')).toEqual([
      expect.objectContaining({
        type: 'Convention',
        text: 'Always squash before merging.',
        reason: 'the changelog is built from merge commits',
      }),
    ]);
  });

  it('takes no choice from a request that is no rule or the task’s next step, with reasons or not', () => {
    for (const prompt of [
      'fix the failing test\nwhy:\n- it blocks CI',
      'revert the last commit\n## Why\n- it broke the release build',
      'The tests fail on CI\nReason:\n- missing env var',
      'can you rename /whats-next to /vamp?\nwhy:\n- it fits the music theme',
      'rename /whats-next to /vamp. What do you think?\nrationale:\n- it fits the music theme',
      'I think we should use redis\nreasoning:\n- it is faster than rebuilding the cache',
      'never mind, forget about the rename\nwhy:\n- not needed after all',
      'use the debugger to find out why the export fails\nwhy:\n- the logs say nothing',
      'switch to the main branch and pull\nwhy:\n- the fix landed there',
      'move the button 10px to the left\nwhy:\n- it overlaps the logo',
      'keep going with the remaining failing tests\nwhy:\n- we are close',
      // A bare "why" asks; it leads nothing.
      'rename /whats-next to /vamp\nwhy\n- it fits the music theme',
    ])
      expect({ prompt, rules: userRules(prompt) }).toEqual({ prompt, rules: [] });
  });

  it('takes a lead inside a code block for code: the prompt is read as any prompt is', () => {
    const [rule, ...more] = userRules("let's use pnpm instead of npm in CI\n```yaml\nwhy:\n  - cached: true\n```");
    expect(more).toEqual([]);
    expect(rule).toMatchObject({ type: 'Decision', text: "Let's use pnpm instead of npm in CI" });
    expect(rule!.reason).toBeUndefined();
  });

  it('reads the rest of an argued prompt as any prompt is, and never its reasons', () => {
    const two = userRules(
      'Always use pnpm for installing packages. Never push directly to the main branch.\nWhy:\n- the lockfile is pnpm’s',
    );
    expect(two.map((r) => [r.type, r.text, r.reason])).toEqual([
      ['Convention', 'Always use pnpm for installing packages.', 'the lockfile is pnpm’s'],
      ['Convention', 'Never push directly to the main branch.', undefined],
    ]);
    const after = userRules(
      "let's use postgres instead of sqlite for the tests\nrationale:\n- parity with prod\n\nNote: never commit the .env file to the repo.",
    );
    expect(after.map((r) => [r.type, r.reason])).toEqual([
      ['Decision', 'parity with prod'],
      ['Convention', undefined],
    ]);
    expect(after[1]!.text).toContain('never commit the .env file');
    // A long request is no choice of its own; its reasons are still reasons.
    const long = [
      'The loader reads the folder. It then walks each file. It writes a cache.',
      'Reasons:',
      '- we keep the old name rather than the new one for now',
    ].join('\n');
    expect(userRules(long)).toEqual([]);
  });

  it('takes a reason for what came before for no rule; a rule with its reason stands', () => {
    // Real (obra-episodic-memory): the why of a question, after it.
    expect(
      userRules('playwright agent feels implausible? because we want the agent doing the driving the browser.'),
    ).toEqual([]);
    for (const rule of [
      'Because the loader derives it from the folder, we never add a name: field to SKILL.md.',
      'Because it breaks CI never push directly to main.',
      'Since v2 we always use pnpm workspaces in this repo.',
    ])
      expect(userRules(rule)[0]?.type).toBe('Convention');
  });

  it('reads what the person says the team should do as a way of working as a choice', () => {
    // Real (tslateman-duet): the commit was reset for it.
    expect(
      userRules('reset the commit! we should run the prettier formatter on the README before committing it.')[0],
    ).toMatchObject({
      type: 'Decision',
      text: 'We should run the prettier formatter on the README before committing it.',
    });
    expect(
      userRules('we probably should NOT file issues in this way - we ought to check guidelines first'),
    ).toHaveLength(1);
    expect(userRules("we shouldn't touch the generated client by hand")).toHaveLength(1);
  });

  it.each([
    'I think we should run it on all push',
    'we should probably be fine with the defaults here',
    'we should not be seeing this error after the restart',
    'we should still have the old tokens in the cache',
    'we should now see the new column in the table',
    "we shouldn't need to restart the worker",
    'we should fix the failing test now',
    'we should look at why the build fails on linux',
    'so we should wait for CI to finish',
    'then we should deploy to staging and check the logs',
  ])('takes %j for no rule: a view, a forecast or the next step of the task', (prompt) => {
    expect(userRules(prompt)).toEqual([]);
  });

  it('takes a hedged view for no decision of its own', () => {
    expect(userRules("do we need something for that? i don't think we need a Dockerfile")).toEqual([]);
  });

  it('takes a sentence that points back for no rule: alone it has no subject', () => {
    const prompt =
      'Can we create a release script that does not override the dependencies itself? ' +
      'This might make the script much simpler and I want to test this first. ' +
      'Also I am thinking to start publishing the cli to chkit instead of the scoped name.';
    expect(userRules(prompt)).toEqual([]);
    // The same choices with their subject named are kept.
    expect(userRules('We will publish the cli to chkit instead of the scoped name.')[0]?.type).toBe('Decision');
  });

  it("ranks the person's wish above what the assistant only just finds worth saying", () => {
    // Real (obsessiondb-chkit): at the session's cap, "We need the TOTP, we need change set
    // versioning" lost its place to narration of the same rank, later judged junk.
    const items = extractLocally(
      new SessionFixture()
        .prompt('We need the TOTP prompt in the release script, and changeset versioning.')
        .say(
          'The manual resolution workaround I restored is the same approach the project had before commit `8b702c8` removed it.',
        )
        .events(),
    );
    const wish = items.find((i) => i.title.startsWith('We need the TOTP'));
    const narration = items.find((i) => i.title.startsWith('The manual resolution workaround'));
    expect(narration).toBeDefined();
    expect(wish!.salience!).toBeGreaterThan(narration!.salience!);
  });
});
