import { SessionFixture, verifiedItems as extract } from './session-fixture';

const session = () => new SessionFixture();

/** The stored item whose title starts so. */
const titled = (items: ReturnType<typeof extract>, start: string) => {
  const item = items.find((i) => i.title.startsWith(start));
  expect(item).toBeDefined();
  return item!;
};

describe('what a note says past its title', () => {
  // Real closing lines (obsessiondb-chkit, shunkakinoki-dotfiles, Safecast), names kept.
  const rootCause =
    'The root cause: `codegen/tsconfig.json` has `paths` pointing to `../core/src/index`, but with `moduleResolution: "NodeNext"`, ' +
    'TypeScript also validates the resolution against the `exports` field of `package.json`, which points to `./dist/index.d.ts`.';

  it('states a finding whole when its title is only the leading clause, then the sentence after it', () => {
    const items = extract(
      session()
        .prompt('why does typecheck fail on CI but not locally?')
        .say(
          `It fails on CI because nothing builds \`dist/\` before \`tsc --noEmit\` runs there.\n\n${rootCause} Without \`dist\` existing, the resolution fails.`,
        ),
    );
    const item = titled(items, 'The root cause: `codegen/tsconfig.json`');
    expect(item.title.length).toBeLessThan(rootCause.length);
    expect(item.facts).toBe(`${rootCause} Without \`dist\` existing, the resolution fails.`);
  });

  it('states an answer whole when its title is only the leading clause', () => {
    const answer =
      'Homebrew works on NixOS only inside an FHS-like environment - NixOS has no `/usr/bin`, no `/lib64/ld-linux-x86-64.so.2`, ' +
      "so brew's bottles (dynamically linked against the standard loader) fail out of the box.";
    const items = extract(
      session()
        .prompt('how can I have Homebrew on NixOS?')
        .say(`${answer} The prefix itself (\`/home/linuxbrew/.linuxbrew\`) is fine; the linker is the problem.`),
    );
    const item = titled(items, 'Homebrew works on NixOS only inside an FHS-like environment');
    expect(item.title).not.toBe(answer);
    expect(item.facts.startsWith(answer)).toBe(true);
    expect(item.facts).toContain('the linker is the problem.');
  });

  it('goes on from a headline that is all title with the sentence after it, the cause of a fix', () => {
    const cause = 'The root cause is that `retry()` never awaited the promise, so every rejection was swallowed.';
    const items = extract(
      session()
        .prompt('the worker swallows errors, fix it')
        .edit('src/worker/retry.ts')
        .say(
          `The bug was in the retry loop of \`src/worker/retry.ts\`. ${cause}\n\n` +
            'I made `retry()` await each attempt and rethrow the last error.',
        ),
    );
    const note = titled(items, 'The bug was in the retry loop of `src/worker/retry.ts`');
    expect(note.facts.startsWith(cause)).toBe(true);
    // Told once, and the note's why: not repeated among its other points, nor an item of its own.
    expect(note.facts.split('never awaited').length).toBe(2);
    expect(note.rationale).toBe(cause);
    expect(items.filter((i) => i !== note && i.title.includes('never awaited'))).toEqual([]);
  });
});

describe('the symptom of a fix', () => {
  it('is what failed before the turn changed anything, not a failure its own change met', () => {
    // Real (entireio-cli): the lint run after the fix failed on the new code, and became the
    // delay fix's symptom.
    const items = extract(
      session()
        .prompt('the CLI waits about a second before it exits, why?')
        .bash('time ./entire help', 'real 0m1.052s')
        .edit('cmd/entire/cli/telemetry/detached.go')
        .bash('mise run lint', '[lint] ERROR task failed', true)
        .edit('cmd/entire/main.go')
        .bash('mise run lint', 'ok')
        .say(
          'The root cause was that PostHog `Close()` waits for its queue with no shutdown timeout. ' +
            'I set a 100ms `ShutdownTimeout`, so the CLI now exits in ~35ms.',
        ),
    );
    const fix = titled(items, 'The root cause was that PostHog `Close()`');
    expect(fix.facts).not.toContain('Symptom:');
    expect(fix.facts).toContain('Reported: the CLI waits about a second before it exits, why?');
  });

  it('is the failure of a test written first to reproduce the bug', () => {
    // As ccl-sample's session fixed type errors in its test file, and as a fix written test-first goes.
    const items = extract(
      session()
        .prompt('the cart total goes negative with a big discount, fix it')
        .edit('test/cart/discount.test.ts')
        .bash('npm test -- discount', 'FAIL test/cart/discount.test.ts\nAssertionError: expected -5 to equal 0', true)
        .edit('src/cart/discount.ts')
        .bash('npm test -- discount', 'Tests: 3 passed')
        .say('The root cause was that `applyDiscount` never clamped the discount to the subtotal.'),
    );
    const fix = titled(items, 'The root cause was that `applyDiscount` never clamped');
    expect(fix.facts).toContain('Symptom: AssertionError: expected -5 to equal 0');
  });

  it('is the first failure met before the first edit', () => {
    const items = extract(
      session()
        .prompt('the build is broken, fix it')
        .bash('npm run build', "error TS2307: Cannot find module './legacy'", true)
        .edit('src/index.ts')
        .bash('npm run build', 'error TS2322: Type string is not assignable to type number', true)
        .edit('src/index.ts')
        .bash('npm run build', 'done')
        .say('The root cause was that `src/index.ts` still imported `./legacy`, removed last week.'),
    );
    const fix = titled(items, 'The root cause was that `src/index.ts` still imported');
    expect(fix.facts).toContain("Symptom: error TS2307: Cannot find module './legacy'");
  });
});

describe('what a note is titled by', () => {
  it('takes neither a point of a fix handed back to be tried nor a fallback for its headline', () => {
    // Real (obra-episodic-memory): the third point of "This should fix it by:" titled the note.
    const items = extract(
      session()
        .prompt('./run.sh still fails in the container build: npm ERR! Exit handler never called!')
        .edit('Containerfile')
        .bash('git commit -m "Update npm to latest in container to fix install issues"', '[main bb3e424] Update npm')
        .say(
          'Try again:\n\n```bash\n./run.sh\n```\n\nThis should fix it by:\n' +
            '1. Updating npm to the latest version first, which has the exit-handler fix\n' +
            '2. Using the `--legacy-peer-deps` flag as extra safety on install\n' +
            '3. Running `node dist/index.js` directly instead of through npm\n\n' +
            'If this still fails, we can build locally and copy the `dist/` folder into the container.',
        ),
    );
    expect(items.map((i) => i.title)).toContain('Update npm to latest in container to fix install issues');
    expect(items.map((i) => i.title).join('\n')).not.toMatch(/^(?:Running `node|If this still fails)/m);
  });
});

describe('a plan the person accepted and cleared the session to implement', () => {
  it('is the note’s plan, and no rule of the person’s', () => {
    // Real (tslateman-duet): Claude Code opens the new session with the accepted plan as its prompt.
    const plan =
      '# Plan: Duet Tooling & Polish\n\n## Changes\n\n### 3. Pre-commit hook\n\n' +
      'Add `generate-readme.sh` before prettier so tables stay in sync.\n\n' +
      'Note: `.git/hooks/` isn’t versioned — this is a local experiment per user’s "let’s try."';
    const items = extract(
      session()
        .prompt(`Implement the following plan:\n\n${plan}`)
        .edit('scripts/generate-readme.sh')
        .bash('git commit -m "fix: regenerate README tables in the pre-commit hook"', '[main 0db5f1f] fix')
        .say('Committed `0db5f1f`: the pre-commit hook now regenerates the README tables before prettier runs.'),
    );
    expect(items.filter((i) => i.type === 'Decision' || i.type === 'Convention')).toEqual([]);
    expect(items.map((i) => i.facts).join('\n')).toContain('Plan: # Plan: Duet Tooling & Polish');
  });
});
