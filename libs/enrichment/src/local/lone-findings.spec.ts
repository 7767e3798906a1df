import { SessionFixture, verifiedItems as extract } from './session-fixture';

const session = () => new SessionFixture();

describe('a finding alone in its paragraph', () => {
  /** The titles an answer's closing message gives besides the answer, the finding last in it. */
  const findings = (finding: string) =>
    extract(
      session()
        .prompt('why does git status fail in the worktree?')
        .say(
          `It fails because \`gc --auto\` pruned loose objects that the worktree's index still names.\n\n${finding}`,
        ),
    )
      .map((i) => i.title)
      .filter((title) => !title.startsWith('It fails'));

  it('is no note when it is a short sentence with nothing after it: away from its message it names neither what nor why', () => {
    // Real closing lines (entireio-cli, shunkakinoki-dotfiles), each a step of a point made elsewhere.
    expect(findings("The fix is to rebuild the worktree's index.")).toEqual([]);
    expect(findings('**Caveat:** brew-installed binaries only run inside that shell.')).toEqual([]);
  });

  it('is no note when all that follows it in its paragraph adds nothing', () => {
    expect(findings("The fix is to rebuild the worktree's index. The simplest way:")).toEqual([]);
  });

  it('is a note when it ends a paragraph, or stands in a list', () => {
    expect(
      findings(
        'The build fails on a clean checkout because the dev dependencies are skipped. The fix is to install with `--include=dev`.',
      ),
    ).toContain('The fix is to install with `--include=dev`');
    expect(findings('- **Root cause:** `gc --auto` pruned the objects the index needs')).toEqual([
      expect.stringMatching(/^Root cause: `gc --auto` pruned the objects the index needs/),
    ]);
  });

  it('is a note when it says enough on its own, or a sentence after it does', () => {
    expect(
      findings('Caveat: `git read-tree HEAD` drops what was staged, so commit staged work before running it again.'),
    ).toEqual(['Caveat: `git read-tree HEAD` drops what was staged, so commit staged work before running it again']);
    expect(
      findings("The fix is to rebuild the worktree's index. `git read-tree HEAD` rewrites it from the commit."),
    ).toEqual(["The fix is to rebuild the worktree's index"]);
  });
});

describe('where a finding applies', () => {
  // Real (obsessiondb-chkit): the cause names no file; the files the turn changed fix it.
  const FIXED = ['packages/core/src/planner.ts', 'packages/cli/src/bin/commands/generate/plan-pipeline.ts'];
  const fixed = (cause: string, edits = FIXED) =>
    extract(
      edits
        .reduce(
          (s, file) => s.edit(file),
          session().prompt('mvs are defined before tables in the generated scripts, which breaks the runs'),
        )
        .say(
          `All tests pass. Here's a summary of the fix:\n\n**Root cause:** ${cause} The tie-breaker was the key, and \`materialized_view\` sorts before \`table\`.\n\n**Fix:** both sorts now rank tables first, then views, then materialized views.`,
        )
        // The turn's note takes its closing message, after the summary.
        .bash('gh pr create --fill', 'https://github.com/obsessiondb/chkit/pull/34')
        .say('Created the PR: https://github.com/obsessiondb/chkit/pull/34. Tables are now created before views.'),
    ).find((i) => i.title.startsWith('Root cause'));

  const TWO_SORTS = 'Two sort functions gave every create operation the same rank.';

  it('is the code the turn changed, for a cause or fix that names none', () => {
    expect(fixed(TWO_SORTS)?.files).toEqual(FIXED);
    expect(fixed(TWO_SORTS, [...FIXED, 'CHANGELOG.md', 'docs/migrations.md'])?.files).toEqual(FIXED);
  });

  it('is no file when the turn changed more code than a fix names', () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((f) => `packages/core/src/${f}.ts`);
    expect(fixed(TWO_SORTS, many)?.files).toEqual([]);
  });

  it('is the files a finding names, when it names some', () => {
    expect(
      fixed('The sort in `packages/core/src/planner.ts` gave every create operation the same rank.')?.files,
    ).toEqual(['packages/core/src/planner.ts']);
  });
});
