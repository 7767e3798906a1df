import { leadingClause } from '../text';
import { isStatusFluff } from './salience';
import { SessionFixture, exchange, verifiedItems as extract } from './session-fixture';
import { titleAndRest } from './turn-notes';

const session = () => new SessionFixture();

describe('notes, not fragments', () => {
  const long =
    'The issue is that with `ShutdownTimeout: 100ms`, the `Close()` is waiting for the batch to be sent, ' +
    'but the HTTP request itself has a 10s timeout by default, so the process waits on the network at exit.';

  it('titles a long sentence by its leading clause and states it whole, with no ellipsis at either end', () => {
    const { title, rest } = titleAndRest(`${long} Setting a transport timeout fixes it.`);
    expect(title).toBe(
      'The issue is that with `ShutdownTimeout: 100ms`, the `Close()` is waiting for the batch to be sent, ' +
        'but the HTTP request itself has a 10s timeout by default',
    );
    expect(rest.startsWith(long)).toBe(true);
    expect(`${title}${rest}`).not.toContain('…');
  });

  it('titles a note by the sentence after a lead of a word or two, and states both', () => {
    expect(
      titleAndRest(
        'Still failing. The issue is that git still warns about ignored files even though the hooks passed.',
      ),
    ).toEqual({
      title: 'The issue is that git still warns about ignored files even though the hooks passed.',
      rest: 'Still failing. The issue is that git still warns about ignored files even though the hooks passed.',
    });
    // A short sentence that says something is the title, and so is a lead followed by nothing.
    expect(titleAndRest('Use Kysely. Raw SQL strings broke on every rename.').title).toBe('Use Kysely.');
    expect(titleAndRest('Redis is down. Restarting it cleared the queue.').title).toBe('Redis is down.');
    expect(titleAndRest('Done. Want me to commit this?').title).toBe('Done.');
  });

  type Clause = [sentence: string, max: number, clause: string];
  it.each<[string, ...Clause[]]>([
    [
      'keeps a sentence that fits whole as the title',
      ['Use Kysely for every query.', 160, 'Use Kysely for every query.'],
    ],
    [
      'never ends a title inside a parenthesis: an aside is whole or left out',
      [
        'With 4 worktrees and frequent checkpoint operations, the cleanest fix is to make the Entire CLI run `git gc` itself at a safe point (e.g., after condensation when refs are updated) rather than letting it fire from a VS Code fetch.',
        160,
        'With 4 worktrees and frequent checkpoint operations, the cleanest fix is to make the Entire CLI run `git gc` itself at a safe point',
      ],
    ],
    [
      'lets a parenthesis that never closes, a smiley or an enumerator hold no break',
      [
        'The deploy works again :( after two days of retries, because the health check now waits for the port before it curls the service.',
        100,
        'The deploy works again :( after two days of retries',
      ],
      [
        'The build is finally green again :( after three retries on CI, so we fixed it by 1) hashing the lockfile and 2) pinning the runner image.',
        100,
        'The build is finally green again :( after three retries on CI, so we fixed it',
      ],
    ],
    [
      'breaks inside an aside when the aside holds every break, rather than mid-phrase',
      [
        'The worker crashed (again, after the upgrade to Node 22, which changed the default stack size for every worker thread we start).',
        100,
        'The worker crashed (again, after the upgrade to Node 22',
      ],
    ],
  ])('%s', (_, ...cases) => {
    for (const [sentence, max, clause] of cases) expect(leadingClause(sentence, max)).toBe(clause);
  });

  it('never ends a title inside a code span', () => {
    const sentence =
      'The migration failed on the query `SELECT id FROM items WHERE status = (SELECT code FROM statuses WHERE name = $1)` because the subquery returned two rows.';
    const { title } = titleAndRest(sentence);
    expect((title.match(/`/g) ?? []).length % 2).toBe(0);
  });

  it('titles a long sentence up to its parenthesis, not at a comma inside its opening phrase', () => {
    const sentence =
      'Root cause: With `moduleResolution: "NodeNext"`, the `paths` entries in tsconfig couldn\'t resolve `@chkit/core` to source files (TypeScript doesn\'t add `.ts` extensions in this mode).';
    expect(titleAndRest(sentence).title).toBe(
      'Root cause: With `moduleResolution: "NodeNext"`, the `paths` entries in tsconfig couldn\'t resolve `@chkit/core` to source files',
    );
  });

  it('keeps no bullet of a weighing as a note of its own; the conclusion is the note', () => {
    const items = extract(
      new SessionFixture()
        .prompt('Can you list, in 3 bullet points, the strengths of keeping dev-docs/ apart from work/?')
        .say(
          '- **Clear separation of concerns** — reference never gets mixed up with work items, which makes both easier to maintain.\n' +
            '- **Reduced context pollution** — the assistant can target `dev-docs/` instead of sifting through a flat pile of markdown.\n' +
            '- **Scales without clutter** — the convention keeps the root clean instead of one unsorted `docs/` folder.',
        )
        .prompt('Fair enough. Can you write a balanced opinion on this approach?')
        .say(
          'The split works best once a project has stabilized. In short: the idea is sound, but a rigid directory tree over-commits to a structure that real projects outgrow, so use it as a naming convention rather than folders.',
        ),
    );
    const titles = items.map((i) => i.title).join('\n');
    expect(titles).not.toMatch(/Reduced context pollution|Scales without clutter|Clear separation/);
    expect(titles).toMatch(/In short: the idea is sound/);
  });

  it('takes status narration for no note', () => {
    const items = extract(
      new SessionFixture()
        .prompt('ship the logs to loki please')
        .bash('kubectl apply -f loki.yaml', 'configured')
        .say(
          'The permission change propagated and logs are now being shipped to Loki successfully. Looks like Release Please also bumped to a new version.',
        ),
    );
    expect(items.map((i) => i.title).join('\n')).not.toMatch(/propagated|Looks like/);
  });

  it('takes where a commit went for no headline', () => {
    const titleAfter = (closing: string) =>
      extract(
        new SessionFixture()
          .prompt('fix the typecheck failures in CI')
          .edit('packages/codegen/tsconfig.json')
          .bash(
            'git commit -m "Fix typecheck CI failures by using custom export conditions" && git push',
            '[main ccdd053] Fix typecheck CI failures by using custom export conditions',
          )
          .say(closing),
      )[0]?.title;
    for (const closing of [
      'Committed and pushed as `cd7e235`.',
      'The commit `ccdd053` is now on the remote. Typecheck no longer depends on `dist/` existing.',
    ]) {
      expect(titleAfter(closing)).toBe('Fix typecheck CI failures by using custom export conditions');
    }
    // Only a commit's whereabouts, said of its sha, is narration; how pushes work is a fact.
    for (const fact of [
      'Pushed to `main` after the rebase because CI only runs on main',
      'Pushed to `main` so the release job picks it up',
      'Tags pushed to origin trigger the release workflow in `.github/workflows/release.yml`',
      'Changes to `schema.prisma` must be committed and pushed before the deploy job runs',
      'The docs site is now on GitHub Pages, served from the `gh-pages` branch',
    ]) {
      expect(isStatusFluff(fact)).toBe(false);
    }
  });
});

describe('a turn’s headline', () => {
  it('is never a line that points back, which has no subject in the brain', () => {
    const items = extract(
      new SessionFixture()
        .prompt('Fix the SSE parser, it drops events that span two chunks.')
        .edit('app/lib/streaming/sse-parser.ts')
        .say(
          "That's expected since the parser split events on every chunk it read. " +
            'The SSE parser now buffers partial lines across chunk boundaries.',
        ),
    );
    expect(items.length).toBeGreaterThan(0);
    expect(items.filter((i) => /^That/.test(i.title))).toEqual([]);
  });
});

describe('what is no note at all', () => {
  it('is a process id to kill: it names a process that is gone by the next session', () => {
    expect(isStatusFluff('To stop it later: `kill 102254`')).toBe(true);
    expect(isStatusFluff('The worker ignores SIGTERM, so `kill -9` is the only way to stop it')).toBe(false);
  });
});

describe('what a note says past its title', () => {
  /** The facts of the BugFix a closing message's finding makes. */
  const findingFacts = (closing: string) =>
    extract(session().prompt('look into the worker hanging on shutdown').say(closing)).find((i) => i.type === 'BugFix')
      ?.facts;

  it('is never an offer, a lead into a list or a reaction that followed the finding', () => {
    const cause = 'The root cause is that the queue client keeps a blocking connection open after `close()` returns.';
    for (const after of ['Want me to patch it?', 'The simplest way:', 'That was it.', 'Let me know.']) {
      expect(findingFacts(`${cause} ${after}`)).toBe(cause);
    }
  });

  it('leaves out of a fix a closing offer, a lead into a list it lost, and a prompt that only said yes', () => {
    const fix = (prompt: string) =>
      extract(
        session()
          .prompt(prompt)
          .edit('src/worker/shutdown.ts')
          .say(
            'Root cause: the queue client kept a blocking connection open after `close()` returned.\n\n' +
              'The worker now calls `disconnect()` on the blocking connection before it exits.\n\n' +
              'Changes made:\n- `src/worker/shutdown.ts`: awaits the queue before exit\n- `docs/shutdown.md`: Updated documentation:\n\n' +
              'Want me to also add a note about the new shutdown order to the README?',
          ),
      )[0];
    const said = fix('yes please fix them');
    expect(said?.type).toBe('BugFix');
    expect(said?.facts).toContain('The worker now calls `disconnect()` on the blocking connection before it exits.');
    expect(said?.facts).not.toMatch(/Want me to|Changes made|Reported: yes/);
    // A report in the person's own words stays, however short or however asked.
    for (const report of ['fix the shutdown hang', 'the worker hangs on shutdown, can you fix it?']) {
      expect(fix(report)?.facts).toContain(`Reported: ${report}`);
    }
  });

  it('keeps a short fact that follows a finding', () => {
    expect(
      findingFacts(
        'The root cause is that the session cache never evicts entries after logout. Keys expire after 30s.',
      ),
    ).toBe('Keys expire after 30s.');
  });

  it('records the question an answer answered: without "ok. uh. no.", with its code names and the lines before "why?"', () => {
    const asked = (prompt: string) =>
      extract(
        session()
          .prompt(prompt)
          .say(
            'The worker process exits before the queue drains because the SIGTERM handler never awaits `queue.close()`. ' +
              'Awaiting it keeps the process alive until the last job settles.',
          ),
      )[0]?.facts;
    expect(asked('ok. uh. no. the worker exits before the queue drains after every deploy. why?')).toContain(
      'Asked: the worker exits before the queue drains after every deploy.',
    );
    expect(asked('node.js crashes on shutdown, why?')).toContain('Asked: node.js crashes on shutdown, why?');
    expect(asked('we publish the cli as chkit now\nIs the name chkit free on npm?')).toContain(
      'Asked: Is the name chkit free on npm?',
    );
    expect(asked('What, exactly, makes the worker exit early?')).toContain(
      'Asked: What, exactly, makes the worker exit early?',
    );
    expect(asked('the worker exits before the queue drains after every deploy\n\nwhy?')).toContain(
      'Asked: the worker exits before the queue drains after every deploy why?',
    );
  });
});

describe('what was only put forward', () => {
  /** The titles of what one prompt and its answer make, a line each. */
  const titlesOf = (prompt: string, answer: string) =>
    extract(exchange(prompt, answer))
      .map((i) => i.title)
      .join('\n');

  it('keeps no guess that nothing acted on, and keeps the cause a fix acted on', () => {
    const items = extract(
      new SessionFixture()
        .prompt('why does git status fail in the worktree?')
        .say(
          'The fact that this worktree is inside `.worktrees/1` might also contribute, since git gc does not always account for worktree refs stored there.',
        )
        .prompt('the e2e tests are flaky, fix them')
        .edit('packages/cli/test/e2e.test.ts')
        .bash('bun test', '12 pass, 0 fail')
        .say(
          'The root cause is likely ClickHouse Cloud replication lag: after `CREATE DATABASE` succeeds, `CREATE TABLE` hits a replica where the database is not visible yet. The migrate step now retries up to 5 times.',
        ),
    );
    const titles = items.map((i) => i.title).join('\n');
    expect(titles).not.toMatch(/might also contribute/);
    expect(titles).toMatch(/replication lag/);
  });

  it('keeps no item of a list led by a guess', () => {
    const titles = titlesOf(
      'git status says the index is corrupt again, why?',
      'A few things that could help prevent it:\n' +
        '- Run `git config gc.worktreeRefExpire never` in the main repo to prevent GC from expiring worktree refs\n' +
        '- Check if something is triggering `git gc` automatically, such as a git hook, the IDE or the `gc.auto` setting',
    );
    expect(titles).not.toMatch(/worktreeRefExpire|gc\.auto|could help/);
    // What can make it happen is as open: the session later found the cause (entireio-cli).
    const possible = extract(
      new SessionFixture()
        .prompt('1. this has happened twice now just fyi')
        .bash('git read-tree HEAD && git status', 'nothing to commit, working tree clean')
        .say(
          'Fixed — clean status, no errors. This can happen when:\n\n' +
            '1. **`git gc --auto`** runs in the main repo and prunes loose objects that the worktree index points to\n' +
            '2. **Shadow branch operations** (the `entire/` branches) create temporary trees/blobs that get committed to the shadow branch, ' +
            'but the worktree index caches references to the loose objects before they get packed',
        ),
    );
    expect(possible.map((i) => i.title)).toEqual([]);
  });

  it('keeps no lean toward an option as a Decision', () => {
    const items = extract(
      exchange(
        'which agent framework should the scenario tester use?',
        "I'd lean toward Option 3 (a custom agent) because you need tight control over the agent loop and state management is critical for the `scenario_execute` tool.",
      ),
    );
    expect(items.filter((i) => i.type === 'Decision').map((i) => i.title)).toEqual([]);
  });

  it('takes an answer spoken to the person or only agreeing for no note', () => {
    const answers = [
      'You can create a new changeset for `chkit` (patch) and re-run the release script to publish it.',
      'Yep — `declaration: true` and `declarationMap: true` are both set in the base tsconfig of every package.',
      "It's a known pain point with iTerm2: the terminal cannot tell soft wraps from hard wraps when text is copied.",
      "We're in a worktree (`/Users/dev/projects/app/.worktrees/streaming`), so the hooks run from the main checkout.",
      'The skill list in your session still shows stale names (`duet:whats-next`, `duet:note-why`) from the cached plugin.',
    ];
    for (const answer of answers) {
      const items = extract(exchange('how do I get the renamed package published?', answer));
      expect(items.map((i) => i.title)).toEqual([]);
    }
    // An answer about the project still is one, and so is one that says where code lives.
    const kept = titlesOf(
      'is there any server side logic in the randomizer?',
      'It runs entirely in the browser: there is no server-side logic, and `index.html` holds the whole app.',
    );
    expect(kept).toMatch(/runs entirely in the browser/);
    const where = titlesOf(
      'where is the config stored?',
      "It's stored in `~/.config/memex/config.json`, which `memex init` writes on the first run.",
    );
    expect(where).toMatch(/stored in `~\/\.config\/memex\/config\.json`/);
  });

  it('keeps a caveat, which is a finding, not a side of a choice', () => {
    const titles = titlesOf(
      'can I prune the old worktrees?',
      '**Caveat:** `git worktree prune` also deletes the refs of a worktree on an unmounted disk, so mount it before pruning.',
    );
    expect(titles).toMatch(/git worktree prune/);
  });

  it('takes a sentence that argues one side of a choice for no finding', () => {
    const titles = titlesOf(
      'what are the options for the agent loop?',
      '### Option 3: Custom agent\nBuild our own loop on the computer use API.\n\n**Cons**: Have to build state management and tool orchestration ourselves, which means more code to maintain.\n\n' +
        'The closest options: a `.git/hooks/pre-commit` hook that stays local; a tracked script in `scripts/` installed by `install.sh`.',
    );
    expect(titles).not.toMatch(/Cons|closest options/);
  });
});

describe('a paragraph led by a bold label', () => {
  const rootCause =
    '**Root cause:** The page cache key omits the locale, so the first visitor’s language is served to everyone.';
  it.each([
    ['an offer', 'Want me to add the locale to the key?'],
    ['a guess', 'Other pages might be affected too.'],
    ['a promise', 'I will add a regression test for it later.'],
  ])('keeps its cause as a BugFix when it ends on %s, which the note leaves out', (_, ending) => {
    const items = extract(
      new SessionFixture()
        .prompt('why do french visitors see the english page?')
        .edit('src/cache/page-key.ts')
        .edit('src/cache/page-key.test.ts')
        .say(`${rootCause} The key now includes \`locale\`. ${ending}`),
    );
    const fix = items.find((i) => /cache key omits the locale/.test(i.title));
    expect(fix?.type).toBe('BugFix');
    expect(`${fix?.facts}`).not.toContain(ending);
    expect(items.filter((i) => i.type === 'Todo')).toEqual([]);
  });
});

describe('why a change was made', () => {
  it('keeps the request a change answered, which often says why', () => {
    const items = extract(
      new SessionFixture()
        .prompt('i think we can cut the /note-why - utility feels low')
        .edit('commands/note-why.md')
        .edit('CLAUDE.md')
        .say(
          'Removed `commands/note-why.md`, stripped all three references, swapped the naming example to `capture-memory.md`.',
        ),
    );
    const note = items.find((i) => /note-why/.test(i.title));
    expect(note?.facts).toContain('Asked: i think we can cut the /note-why - utility feels low');
  });

  it('leaves out a request that only agreed or led into a plan', () => {
    const items = extract(
      new SessionFixture()
        .prompt('Implement the following plan:')
        .edit('src/planner.ts')
        .edit('src/planner.test.ts')
        .say(
          'Moved `create_table` ahead of `create_materialized_view` in the planner ranks, with a test for the order.',
        ),
    );
    expect(items.map((i) => i.facts).join('\n')).not.toMatch(/Asked:/);
  });
});
