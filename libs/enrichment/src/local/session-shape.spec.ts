import { commitOf } from './event-signals';
import { readWindow } from './local-engine';
import { SessionFixture, exchange, verifiedItems as extract } from './session-fixture';
import { currentTurn } from './turns';

const session = () => new SessionFixture();

describe('a compaction summary', () => {
  const summary = [
    'Analysis:',
    'The conversation covered the checkout flow.',
    '',
    'Summary:',
    '1. Primary Request and Intent:',
    '   The user asked to fix checkout totals.',
    '4. Errors and fixes:',
    '   - TypeError in `src/cart/discount.ts`: legacy codes have no rule; fixed by falling back to the flat amount.',
    '     ```ts',
    '     const rate = discount.rule?.percent ?? 0;',
    '     ```',
    '6. All user messages:',
    '   - "Always run the cart tests before committing."',
    '   - "thanks"',
    '7. Pending Tasks:',
    '   - Add a regression test for legacy discount codes',
    '   - None of the other cart rules were checked yet',
    '8. Current Work:',
    '   Wiring the checkout module to the payment gateway behind a feature flag.',
  ].join('\n');

  it('keeps each entry of its errors, tasks and current work, and the person’s quoted rules', () => {
    const items = extract(session().compacted(summary));
    const byType = (type: string) => items.filter((i) => i.type === type).map((i) => i.title);
    expect(byType('BugFix')).toEqual([
      'TypeError in `src/cart/discount.ts`: legacy codes have no rule; fixed by falling back to the flat amount',
    ]);
    expect(items.find((i) => i.type === 'BugFix')).toMatchObject({ resolved: true, files: ['src/cart/discount.ts'] });
    expect(byType('Todo')).toEqual([
      'Add a regression test for legacy discount codes',
      'None of the other cart rules were checked yet',
    ]);
    expect(byType('ImplementationFact')).toEqual([
      'Wiring the checkout module to the payment gateway behind a feature flag',
    ]);
    expect(byType('Convention')).toEqual(['Always run the cart tests before committing']);
    // The request itself, the analysis and quoted code make no item.
    expect(items.map((i) => i.title).join('\n')).not.toMatch(/fix checkout totals|chronologically|const rate/);
  });
});

describe('an answer to a question', () => {
  it('keeps the direct answer a turn that changed nothing opens with', () => {
    const [answer] = extract(
      exchange(
        'so now, when hosted on render.com, its likely /dev/urandom?',
        "It runs entirely in the browser — there's no server-side logic. The `crypto.getRandomValues()` call happens on your phone, not on Render's servers.",
      ),
    );
    expect(answer).toMatchObject({
      type: 'ArchitectureNote',
      title: "It runs entirely in the browser — there's no server-side logic",
    });
    expect(answer!.facts).toContain('Asked: so now, when hosted on render.com, its likely /dev/urandom?');
  });

  it('keeps nothing when the answer is about the assistant itself', () => {
    expect(
      extract(
        exchange(
          'when did this session start? at what time?',
          "I don't have access to timestamps — my context doesn't include them. You'd have to check your scrollback.",
        ),
      ),
    ).toEqual([]);
  });
});

describe('a conclusion the person rejects', () => {
  const turns = () =>
    session()
      .prompt('why is this happy locally but failing in ci?')
      .say('The issue is that CI is running on an older commit that still had the problems we just fixed.');

  it('is dropped when the rejection comes in the same window', () => {
    const events = turns()
      .prompt('ok. uh. no. the ci is running on the current commit')
      .say('Let me look again.')
      .events();
    expect(readWindow(events).candidates.map((i) => i.title)).not.toContain(
      'The issue is that CI is running on an older commit that still had the problems we just fixed',
    );
  });

  it('names the rejected closing message so items an earlier window stored can be retracted', () => {
    const all = turns().prompt("that didn't work, still failing").say('Checking the workflow file.').events();
    const cut = all.findIndex((e) => e.type === 'prompt' && e.content.startsWith('that'));
    const { retracted } = readWindow(all.slice(cut), currentTurn(all.slice(0, cut)));
    expect(retracted).toEqual([all.find((e) => e.content.startsWith('The issue is that CI'))!.eventId]);
  });

  it('is dropped when the person disputes it, even after a question or past their opening words', () => {
    for (const reply of [
      "hmm no i haven't ordered the blocks so that's wrong",
      'but that alone should not lead to failures, our runners are stable. This was the error: exit 137',
      'I checked, and that is not the cause: ci checks out the current commit',
      "but that wouldn't explain the exit 137 on main",
      // Real (obsessiondb-chkit): the work turned down, with what was wanted instead.
      " this is not what I wanted, I wanted all the functionality that it had before. The only thing it shouldn't do is to pin the runner.",
      "this isn't what I wanted, put the old behaviour back",
      'This is not what we need',
      'that’s not what I want',
      // The cause named against the one concluded.
      'the real problem is the proxy timeout, not the commit',
      'the root cause was the runner image, not the older commit.',
      // One word shared with the closing ("ci") does not make the named cause the closing's.
      'the problem is the CI cache on the runner, not the older commit',
    ]) {
      const events = session()
        .prompt('why is this happy locally but failing in ci?')
        .say(
          'The issue is that CI is running on an older commit that still had the problems we just fixed. Want me to pin it?',
        )
        .prompt(reply)
        .say('Let me look again.')
        .events();
      expect(readWindow(events).retracted).toHaveLength(1);
    }
  });

  it('is kept when the person says "that is wrong" of something else, doubts it, or agrees with a "but"', () => {
    for (const reply of [
      'the README says port 3000, that is wrong too; fix it as well',
      'ok, thanks. the README still says the old port, which is wrong; fix that next',
      "I don't think that's wrong, go ahead and pin it",
      "if that's wrong we can revert later, pin it",
      "good, so that's not the cause of the timeouts, it's the older commit. pin it",
      'but that also means we can drop the retry, right? do it',
      "but it can't hurt, go ahead",
      "but that shouldn't block us, pin it",
      'if this is not what we wanted we can revert, pin it',
      'this is not what I asked for but it is even better, thanks',
      'it was not what I wanted at first, but I like it now, commit it',
      'this is not what I wanted to ask about. separately, how do I run the tests?',
      // A cause named beside the one concluded, agreeing with it, or about something else.
      'ok the problem was the older commit, not the runner. makes sense, pin it',
      'the problem is minor, not a blocker. pin it',
      'the bug is in the parser, not the lexer. Please fix the parser next',
      'the problem is the flaky runner, not sure why though',
      'the issue is the older commit, not only the runner: pin it',
      // The cause the closing named, named again.
      'the problem was the older commit on the runner, not the proxy. pin it',
      // Exclamations, not a "no".
      'oh no, I forgot to mention the deploy step also needs node 18',
      'oh, same thing happens in the release workflow, fix it there too',
    ]) {
      const events = turns().prompt(reply).say('Okay.').events();
      expect({ reply, retracted: readWindow(events).retracted }).toEqual({ reply, retracted: [] });
    }
  });

  it('is dropped when the person names the cause against the one it concluded', () => {
    // Real (obra-episodic-memory): the closing blamed db:generate; the person, the formatter.
    const events = session()
      .prompt('I see four uncommitted files?')
      .say(
        '**Step 2: The changes are substantial formatting differences**\n\nEvery `db:generate` run creates formatting diffs in the committed Prisma files. This will be an ongoing problem.\n\nWhat is your preference?',
      )
      .prompt('ah. the issue is the linter/formatter, not db:generate, I think.')
      .say("You're right! The issue is that biome is formatting the committed Prisma files every time it runs.")
      .events();
    const { retracted, candidates } = readWindow(events);
    expect(retracted).toHaveLength(1);
    expect(candidates.map((c) => c.title).join('\n')).not.toContain('Every `db:generate` run');
    // Opened with a "no" that answers the closing's question: still the cause named against it.
    const [prompt] = events.filter((e) => e.content.startsWith('ah.'));
    const no = events.map((e) =>
      e === prompt ? { ...e, content: 'no, the issue is the linter/formatter, not db:generate.' } : e,
    );
    expect(readWindow(no).retracted).toHaveLength(1);
  });

  it('is dropped when "this should work now" is answered with the same command failing, pasted back', () => {
    const fix = () =>
      session()
        .prompt('./run.sh fails in the container build: npm ERR! Exit handler never called!')
        .edit('Containerfile')
        .say(
          'Fixed! The issue was `npm ci` has a known bug in container environments. Changed to `npm install`.\n\nTry running again: `./run.sh`. This should work now.',
        );
    const pasted = [
      '❯ ./run.sh',
      '🐳 Building container image...',
      '[+] Building 120.4s (6/12)',
      'npm ERR! Exit handler never called!',
      'Error: building at STEP "RUN npm install": exit status 1',
    ].join('\n');
    const events = fix().prompt(pasted).say('Let me try a different approach.').events();
    expect(readWindow(events).retracted).toHaveLength(1);
    expect(
      readWindow(events)
        .candidates.map((i) => i.title)
        .join('\n'),
    ).not.toContain('known bug');
  });

  it('is kept when the pasted output says it worked, counts no failure, or asks for something new', () => {
    for (const reply of [
      ['it works now, thanks!', '✓ image built', 'Error: none of the 12 checks failed'].join('\n'),
      ['$ cargo test', 'running 42 tests', 'test result: ok. 42 passed; 0 failed'].join('\n'),
      ['$ npx tsc --noEmit', 'Found 0 errors.'].join('\n'),
      ['perfect', 'now add error handling for the config loader too'].join('\n'),
    ]) {
      const events = session()
        .prompt('fix the build')
        .edit('Containerfile')
        .say('Changed to `npm install`. Try running again — this should work now.')
        .prompt(reply)
        .say('Great.')
        .events();
      expect({ reply, retracted: readWindow(events).retracted }).toEqual({ reply, retracted: [] });
    }
    const other = session()
      .prompt('fix the build')
      .edit('Containerfile')
      .say('Changed to `npm install` and pinned Node 20 in the Containerfile.')
      .prompt(['now the tests fail:', 'Error: expected 3, got 4'].join('\n'))
      .say('Looking at the test.')
      .events();
    expect(readWindow(other).retracted).toEqual([]);
  });

  it('is kept when the next prompt moves on instead', () => {
    const events = turns().prompt('ok, thanks. now rebase on main please').say('Rebasing.').events();
    expect(readWindow(events).retracted).toEqual([]);
  });

  it('is kept when "no" answers the question the closing message ended with', () => {
    const events = session()
      .prompt('why is this happy locally but failing in ci?')
      .say(
        'The issue is that CI runs an older Node. I pinned Node 20 in the workflow.\n\nWant me to also update the README?',
      )
      .prompt('no, that is fine for now')
      .say('Okay.')
      .events();
    expect(readWindow(events).retracted).toEqual([]);
  });

  it('is kept when the "no" is "no need" or "no thanks"', () => {
    for (const reply of ['no need, it works now', 'no thanks, all good', 'nope, no worries, ship it']) {
      const events = turns().prompt(reply).say('Okay.').events();
      expect(readWindow(events).retracted).toEqual([]);
    }
  });

  it('ends on any prompt, however long its run of fillers', () => {
    // A nested, overlapping filler pattern once made this take exponential time.
    const prompt = `${'hmm '.repeat(30)}hmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm!x`;
    const events = turns().prompt(prompt).say('Okay.').events();
    expect(readWindow(events).retracted).toEqual([]);
  });
});

describe('commits', () => {
  const tool = (command: string) => ({
    seq: 1,
    eventId: 'e1',
    type: 'tool_call' as const,
    timestamp: new Date(),
    content: `Bash: ${command}`,
    metadata: { tool: 'Bash', input: { command } },
  });

  it('reads the subject of a heredoc message, a -m message and what git printed', () => {
    expect(
      commitOf(
        tool(`git commit -m "$(cat <<'EOF'\nInitial commit: pixel art random number generator\n\nMore.\nEOF\n)"`),
      ),
    ).toEqual({
      message: 'Initial commit: pixel art random number generator',
      files: [],
    });
    expect(commitOf(tool('git commit -m "Update to the Playwright ARM64 image\n\nWhy."'))?.message).toBe(
      'Update to the Playwright ARM64 image',
    );
    expect(
      commitOf({
        ...tool('git commit'),
        type: 'command',
        content: '[main (root-commit) e2aec0d] Initial commit: pixel art\n 2 files changed',
      }),
    ).toEqual({ message: 'Initial commit: pixel art', sha: 'e2aec0d', branch: 'main', files: [] });
  });

  it('names the commit of a turn by its sha and branch in the turn’s note', () => {
    const [note] = extract(
      session()
        .prompt('Yes please, init the repo and commit everything.')
        .bash(
          `git add index.html LICENSE && git commit -m "$(cat <<'EOF'\nInitial commit: pixel art random number generator\nEOF\n)"`,
          '[main (root-commit) e2aec0d] Initial commit: pixel art random number generator\n 2 files changed',
        )
        .say('All committed.'),
    );
    expect(note).toMatchObject({ title: 'Initial commit: pixel art random number generator' });
    expect(note!.facts).toContain('Commits: e2aec0d on main');
  });
});

describe('what makes no item', () => {
  /** The items of a turn that edited a file at the person's request and closed on these lines. */
  const closedOn = (request: string, file: string, lines: string[]) =>
    extract(session().prompt(request).edit(file).say(lines.join('\n')));

  it('takes no status report, no file list and no generic list label', () => {
    const items = closedOn('Please finish the streaming fixes and push them.', 'app/routes/api.stream.ts', [
      'Fixed the abort listener so it no longer leaks because it is registered with `{ once: true }`.',
      '',
      '## Files Modified',
      '- `app/routes/api.stream.ts` (updated)',
      '- `app/routes/api.plan-stream.ts` (updated)',
      '',
      '**Pros:** the listener is cleaned up after it fires, so nothing leaks between requests',
      '',
      '✅ All quality checks pass!',
      '✅ Pushed successfully',
    ]);
    const text = items.map((i) => `${i.title}\n${i.facts}`).join('\n');
    expect(items[0]!.title).toBe(
      'Fixed the abort listener so it no longer leaks because it is registered with `{ once: true }`',
    );
    expect(text).not.toMatch(/Files Modified|Pros|All quality checks|Pushed successfully/);
  });

  it('reads a list under a heading that names a file as a description of that part', () => {
    const items = closedOn(
      'Add a script that redacts gitleaks findings instead of blocking the commit.',
      'Projects/Scripts/redact_gitleaks_secrets.py',
      [
        'Implemented automatic secret redaction for gitleaks.',
        '',
        '#### 1. **Auto-Redaction Script** (`Projects/Scripts/redact_gitleaks_secrets.py`)',
        '   - Scans staged files using gitleaks',
        '   - Preserves first 4 and last 4 chars for identification',
        '   - Re-stages modified files automatically',
      ],
    );
    // Told whole, in the note of the turn or as an item of its own.
    expect(items.map((i) => `${i.title} ${i.facts}`).join('\n')).toMatch(
      /Auto-Redaction Script \(`Projects\/Scripts\/redact_gitleaks_secrets\.py`\): Scans staged files using gitleaks; Preserves first 4 and last 4 chars/,
    );
  });
});
