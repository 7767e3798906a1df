import { EvidenceIndex } from '../verify';
import { isJunkTitle } from '../junk-title';
import { CONFIDENCE, MAX_ITEMS_PER_WINDOW, extractLocally } from './local-engine';
import { SessionFixture, exchange } from './session-fixture';
import { currentTurn } from './turns';

const session = () => new SessionFixture();

function verified(events: ReturnType<SessionFixture['events']>): boolean {
  const index = new EvidenceIndex(events);
  return extractLocally(events).every((item) => index.verify(item).ok);
}

describe('local engine: a turn and its closing message', () => {
  const events = session()
    .prompt('The cart total is wrong for legacy discount codes, can you fix it?')
    .bash(
      'npm test -- cart',
      "FAIL src/cart/total.spec.ts\nTypeError: Cannot read properties of undefined (reading 'percent')",
      true,
    )
    .say('Let me look at the discount code.')
    .edit('src/cart/discount.ts')
    .bash('npm test -- cart', 'Tests: 24 passed, 24 total')
    .say(
      'Fixed. The root cause was that legacy discount codes have no `rule`, so `discount.rule.percent` threw. ' +
        'Legacy codes now use their flat amount. Would you like me to add a regression test?',
    )
    .events();

  it('states the cause in the assistant words, with the symptom, the file and the passing check', () => {
    const [fix] = extractLocally(events).filter((i) => i.type === 'BugFix');
    expect(fix).toBeDefined();
    expect(fix!.title).toBe(
      'The root cause was that legacy discount codes have no `rule`, so `discount.rule.percent` threw',
    );
    expect(fix!.facts).toContain("Symptom: TypeError: Cannot read properties of undefined (reading 'percent')");
    expect(fix!.files).toEqual(['src/cart/discount.ts']);
    expect(fix!.facts).toContain('Checked: npm test -- cart passed.');
    expect(fix!.resolved).toBe(true);
    // Offers of more help are no part of a note.
    expect(fix!.facts).not.toMatch(/Would you like/);
    expect(verified(events)).toBe(true);
  });

  it('reads nothing into a turn that concluded nothing and changed nothing', () => {
    const chat = session()
      .prompt('Can you show me the files in src/cart?')
      .bash('ls src/cart', 'discount.ts\ntotal.ts')
      .say('Here are the files in src/cart: discount.ts and total.ts.')
      .events();
    expect(extractLocally(chat)).toEqual([]);
  });

  it('keeps a heading and the list it introduces together as one point', () => {
    const list = session()
      .prompt('Please make pyright pass in CI so it can block merges.')
      .edit('claude_code_log/converter.py')
      .say(
        'Done. Fixed all 17 type errors in `claude_code_log/converter.py` by:\n' +
          '- Adding type annotations for `project_dirs: List[Path]`\n' +
          '- Using `cast()` for JSON parsing\n\nPyright now blocks CI because continue-on-error was removed.',
      )
      .events();
    const text = extractLocally(list)
      .map((i) => `${i.title}\n${i.facts}`)
      .join('\n');
    expect(text).toMatch(
      /Fixed all 17 type errors in `claude_code_log\/converter.py` by: Adding type annotations for `project_dirs: List\[Path\]`; Using `cast\(\)` for JSON parsing/,
    );
  });
});

describe("local engine: the user's own rules", () => {
  it('keeps a rule and a choice in the user words', () => {
    const events = session()
      .prompt('From now on, never call the payment gateway from the cart service.')
      .say('Understood, I will keep the gateway behind the checkout module.')
      .prompt('We decided to use Postgres advisory locks for migrations.')
      .prompt("let's use apple container instead of docker proper. it works basically the same way.")
      .say('Switched the run script to `container build` and `container run`.')
      .events();
    const items = extractLocally(events);
    expect(items.find((i) => i.type === 'Convention')).toMatchObject({
      title: 'From now on, never call the payment gateway from the cart service',
      confidence: CONFIDENCE.userRule,
    });
    expect(items.find((i) => i.type === 'Decision' && /apple container/i.test(i.title))?.title).toBe(
      "Let's use apple container instead of docker proper",
    );
    expect(items.find((i) => i.type === 'Decision' && /advisory locks/.test(i.title))?.title).toBe(
      'We decided to use Postgres advisory locks for migrations',
    );
  });

  it('takes no rule from a question, a request for an answer or pasted output', () => {
    const events = session()
      .prompt('Should we always run migrations by hand?')
      .prompt('Can you list, in 5 bullet points, what are the strengths of never mixing docs?')
      .prompt('158.5 npm error Exit handler never called!\n158.5 npm error This is an error with npm itself.')
      .events();
    expect(extractLocally(events)).toEqual([]);
  });

  it('takes no rule from what is said in the moment', () => {
    const events = session()
      .prompt("Never mind the flaky test, let's look at the build output later today.")
      .prompt("Don't worry about the lint warnings in the generated client.")
      .prompt('Stop the dev server and tell me what is listening on port 3000.')
      .prompt('I need to check the deploy logs before the meeting this afternoon.')
      .events();
    expect(extractLocally(events).filter((i) => i.type === 'Convention' || i.type === 'Decision')).toEqual([]);
  });
});

describe('local engine: Claude Code structure', () => {
  it('makes open entries of the last todo list Todos and tells the finished ones in the note', () => {
    const events = session()
      .prompt('Add a GitHub Action that runs the tests and the linter on every push.')
      .todos([
        ['Create the workflow file', 'completed'],
        ['Test the workflow locally with act', 'pending'],
      ])
      .edit('.github/workflows/ci.yml')
      .todos([
        ['Create the workflow file', 'completed'],
        ['Test the workflow locally with act', 'pending'],
      ])
      .say('Created `.github/workflows/ci.yml`, which now runs pytest and ruff on every push.')
      .events();
    const items = extractLocally(events);
    expect(items.find((i) => i.type === 'Todo')?.title).toBe('Test the workflow locally with act');
    const note = items.find((i) => i.type === 'ImplementationFact')!;
    expect(note.facts).toContain('Done: Create the workflow file');
    expect(note.files).toEqual(['.github/workflows/ci.yml']);
  });

  it('turns work the closing message leaves open into a Todo', () => {
    const events = session()
      .prompt('Get the container image to build with the new Playwright base image.')
      .edit('docker/Containerfile')
      .say('Updated the base image to v1.56.0. The container build still fails with an npm error during install.')
      .events();
    expect(extractLocally(events).find((i) => i.type === 'Todo')?.title).toBe(
      'The container build still fails with an npm error during install',
    );
  });

  it('keeps a failure the work met but did not cause, said mid-turn', () => {
    const events = session()
      .prompt('Tables must be created before the materialized views that read them.')
      .edit('packages/core/src/planner.ts')
      .bash('bun run test', 'error: Missing CLICKHOUSE_URL or CLICKHOUSE_HOST', true)
      .say(
        'All tests pass. The only failure is `@chkit/plugin-pull`, a pre-existing e2e test that requires `CLICKHOUSE_URL`.',
      )
      .bash('gh pr create --fill', 'https://github.com/obsessiondb/chkit/pull/34')
      .say('Created the PR: tables are now created before views, and views before materialized views.')
      .events();
    expect(extractLocally(events)).toContainEqual(
      expect.objectContaining({
        type: 'Todo',
        title: 'The only failure is `@chkit/plugin-pull`, a pre-existing e2e test that requires `CLICKHOUSE_URL`',
      }),
    );
  });

  it('takes a fallback the closing message supposes for no open work', () => {
    const events = session()
      .prompt('Get the container image to build with the new Playwright base image.')
      .edit('docker/Containerfile')
      .say(
        'Updated the base image to v1.56.0 and npm to the latest release in the container.\n\n' +
          'If this still fails, we can build locally and copy the `dist/` folder into the container.',
      )
      .events();
    const items = extractLocally(events);
    expect(items.map((i) => i.type)).toContain('ImplementationFact');
    expect(items.filter((i) => i.type === 'Todo')).toEqual([]);
  });

  it('takes a view on a case that may come for a view, not open work, and a failure under a condition for open work', () => {
    const events = session()
      .prompt('Should we split the build into bun build and tsc?')
      .say(
        'No bundler at all: every package uses plain `tsc`, because Bun cannot emit `.d.ts` files.\n\n' +
          'If build times start feeling slow later, splitting into `bun build` + `tsc --emitDeclarationOnly` would be the natural next step.\n\n' +
          'If you run the suite with `--runInBand`, the cache tests still fail: they share one Redis database.',
      )
      .events();
    const items = extractLocally(events);
    expect(items.find((i) => i.title.startsWith('If build times'))?.type).not.toBe('Todo');
    expect(items.find((i) => i.title.startsWith('If you run the suite'))?.type).toBe('Todo');
  });

  it('takes a side of a weighing for an argument, not open work', () => {
    const weighing = (heading: string) =>
      extractLocally(
        session()
          .prompt('what do you think of the dev-docs/work split?')
          .say(
            `The split gives generated documents a home.\n\n## ${heading}\n\n` +
              '- **Natural archival path:** the `work/` subfolders give deferred items a place to go instead of the project root\n' +
              '- **Low ceremony:** two folders and no tooling, so anyone can follow it',
          )
          .events(),
      ).filter((i) => i.type === 'Todo');
    // Real (experiments-ideas): the strengths the person asked for, one of them on deferred work.
    expect(weighing('Strengths')).toEqual([]);
    expect(weighing('Next steps').map((i) => i.title)).toEqual([
      'Natural archival path: the `work/` subfolders give deferred items a place to go instead of the project root',
    ]);
  });

  it('remembers a command that failed and the changed command that worked', () => {
    const events = session()
      .prompt('Commit the new redaction script please.')
      .bash(
        'git add scripts/redact_secrets.py',
        'The following paths are ignored by one of your .gitignore files:\nscripts/redact_secrets.py',
        true,
      )
      .bash('git add -f scripts/redact_secrets.py && git status', 'On branch main\nChanges to be committed:')
      .say('Committed.')
      .events();
    const fix = extractLocally(events).find((i) => i.type === 'BugFix' && /git add/.test(i.title));
    expect(fix?.title).toMatch(
      /^Git add fails with "The following paths are ignored by one of your .gitignore files:"/,
    );
    expect(fix?.facts).toContain('Worked: `git add -f scripts/redact_secrets.py && git status`');
  });

  it('remembers a command that failed until another set something up, read past a workspace runner prefix', () => {
    const failing = "bun run --filter '@chkit/core' test 2>&1";
    const output = [
      '@chkit/core test: bun test v1.3.5 (1e86cebd)',
      '@chkit/core test: # Unhandled error between tests',
      "@chkit/core test: error: Cannot find package 'fast-glob' from '/work/app/packages/core/src/schema-loader.ts'",
      '@chkit/core test:  0 pass',
    ].join('\n');
    const events = session()
      .prompt('Run the core tests.')
      .bash(failing, output, true)
      .bash('git status', 'On branch perth')
      .bash('bun install 2>&1', 'bun install v1.3.5\n+ typescript@5.9.3')
      .bash(failing, '@chkit/core test:  22 pass\n@chkit/core test:  0 fail')
      .say('All 22 core tests pass.')
      .events();
    const fix = extractLocally(events).find((i) => / until /.test(i.title));
    expect(fix?.title).toBe("`bun run --filter '@chkit/core' test` fails until `bun install` runs");
    expect(fix?.facts).toContain("error: Cannot find package 'fast-glob'");
    expect(new EvidenceIndex(events).verify(fix!).ok).toBe(true);
  });

  /** The "fails until" notes of a run where `bun test` fails, `between` happens, and it passes. */
  const untilNotes = (between: (failed: SessionFixture) => SessionFixture, closing: string) => {
    const failed = session().prompt('Run the core tests.').bash('bun test', 'error: expected 3, received 2', true);
    const events = between(failed).bash('bun test', '22 pass').say(closing).events();
    return extractLocally(events).filter((i) => / until /.test(i.title));
  };

  it('takes neither an edit made in the shell nor an unrelated run for a prerequisite', () => {
    const cases = [
      ["sed -i 's/rank + 1/rank/' src/planner.ts", ''],
      ['bun run lint', 'Checked 40 files'],
    ];
    for (const [between, output] of cases) {
      expect(untilNotes((failed) => failed.bash(between!, output!), 'All 22 tests pass now.')).toEqual([]);
    }
  });

  it('keeps an error line whole unless a runner prefix starts most lines', () => {
    const events = session()
      .prompt('Build it.')
      .bash('npm run build', 'Build failed: 3 errors in src/app.ts', true)
      .bash('npm install', 'added 3 packages')
      .bash('npm run build', 'built in 2.1s')
      .say('The build passes after installing the missing packages.')
      .events();
    expect(extractLocally(events).find((i) => / until /.test(i.title))?.facts).toContain(
      'Build failed: 3 errors in src/app.ts',
    );
  });

  it('takes a file edited between the failure and the pass for the fix, not a prerequisite', () => {
    const edited = (failed: SessionFixture) =>
      failed.bash('bun run build', 'Done').edit('packages/core/src/planner.ts');
    expect(untilNotes(edited, 'Fixed the rank in the planner; all tests pass.')).toEqual([]);
  });

  it('takes neither a narrowed-down command nor another script of the same tool for a fix', () => {
    const events = session()
      .prompt('Why does the pseudo-terminal count keep growing?')
      .bash(
        'ls /dev/ttys* | wc -l; sysctl kern.tty.ptmx_max; sysctl kern.tty.ptmx_count',
        'kern.tty.ptmx_max: 511',
        true,
      )
      .bash('ls /dev/ttys* | wc -l', '311')
      .bash("bun run --filter '@chkit/core' test", 'error: Cannot find package fast-glob', true)
      .bash('bun run typecheck', 'Done')
      .say('The count is 311 of 511.')
      .events();
    expect(extractLocally(events).filter((i) => / fails with /.test(i.title))).toEqual([]);
  });

  it('reads a turn begun in an earlier window whole, and leaves a turn wholly before the window alone', () => {
    const events = session()
      .prompt('Why does every command pause before the prompt comes back?')
      .bash('time entire status', 'real 0m0.812s')
      .edit('cmd/entire/telemetry.go')
      .say(
        'The root cause was that the PostHog client Close() waits for pending uploads with no timeout. It is now capped at 100ms.',
      )
      .events();
    const cut = 2;
    const context = currentTurn(events.slice(0, cut));
    expect(context).toEqual(events.slice(0, cut));
    const items = extractLocally(events.slice(cut), context);
    expect(items.find((i) => i.type === 'BugFix')?.title).toMatch(/PostHog client Close\(\) waits/);
    expect(items.every((i) => new EvidenceIndex(events).verify(i).ok)).toBe(true);
    // The next window begins with a new prompt: the earlier turn is not extracted again.
    const next = session().prompt('Thanks, now add a changelog entry for it.').events();
    expect(extractLocally(next, events).filter((i) => /PostHog/.test(i.title))).toEqual([]);
  });

  it('keeps explicit [MEMORY: …] tags whatever else the window holds', () => {
    const events = session()
      .say('[MEMORY: decision: Use Kysely for every query because raw SQL drifted from the schema]')
      .events();
    expect(extractLocally(events)).toMatchObject([{ type: 'Decision', confidence: CONFIDENCE.tag }]);
  });

  it('reads no tag again as the answer to a question: a message of tags makes the tags only', () => {
    const items = extractLocally(
      exchange(
        'How should the ledger keep money?',
        '[MEMORY: decision: Store every amount as integer cents in the ledger service]\n' +
          '[MEMORY: convention: Every API handler validates its request body with zod]',
      ).events(),
    );
    expect(items.map((i) => [i.type, i.title]).sort()).toEqual([
      ['Convention', 'Every API handler validates its request body with zod'],
      ['Decision', 'Store every amount as integer cents in the ledger service'],
    ]);
  });

  it('reads a tag of no known type as the assistant’s words, since it makes no item', () => {
    const closing = 'The cart total is computed in integer cents: [MEMORY: gotcha: floats lose cents in sums].';
    const items = extractLocally(exchange('Why is the cart total an integer?', closing).events());
    expect(items.map((i) => `${i.title} ${i.facts}`).join('\n')).toContain(
      '[MEMORY: gotcha: floats lose cents in sums]',
    );
  });
});

describe('local engine: junk and the cap', () => {
  it('makes no item of shell output, meters, interruptions, heredocs or banners', () => {
    const events = session()
      .prompt('[Request interrupted by user for tool use]')
      .bash(
        'curl -O https://example.com/x.tgz',
        '  % Total    % Received % Xferd  Average Speed\n100  1024  100  1024',
        true,
      )
      .edit('src/a.ts')
      .bash(`git commit -m "$(cat <<'EOF'\nwip\nEOF\n)"`, '[main 3ed6817] wip')
      .bash('npm run build', '> scenario-testing-agent@0.1.0 build\n> tsc\n(eval):1: parse error near `(`', true)
      .edit('src/b.ts')
      .events();
    for (const item of extractLocally(events)) expect(isJunkTitle(item.title)).toBe(false);
  });

  it('keeps only the most salient few of a busy window', () => {
    const busy = session();
    for (let i = 0; i < 20; i += 1) {
      busy
        .prompt(`Rename the helper number ${i} in module m${i} so it says what it does.`)
        .edit(`src/m${i}/helper.ts`)
        .say(`Renamed the helper in \`src/m${i}/helper.ts\` because the old name hid that it retries on failure.`);
    }
    expect(extractLocally(busy.events()).length).toBeLessThanOrEqual(MAX_ITEMS_PER_WINDOW);
  });
});
