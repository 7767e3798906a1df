import { SessionFixture, extractChecked, verifiedItems } from './session-fixture';

const conventional = [
  '8eb9227a fix(gateway): update Tailscale configuration and change bind address to loopback (#1855)',
  '421086f2 chore(deps): lock file maintenance (#1856)',
  '07d333de fix(deps): update all non-major dependencies (#1846)',
  'd746f958 Merge pull request #161 from org/branch',
  'dcb7aa58 fix(nix-darwin): stop writing the sysctl file',
].join('\n');

const emoji = [
  '958e769 🔧 Switch from bun publish to npm publish',
  '355dacf ✨ Feat: Resolve workspace dependencies before publish',
  '06134e1 📝 Docs: Update release instructions',
  '5be1b91 bun verify (#25)',
].join('\n');

function session(log: string) {
  return new SessionFixture()
    .prompt('what did we ship last week?')
    .bash('git log --oneline -5', log)
    .say('The last five commits are fixes to the gateway and dependency updates.');
}

describe('the commit style git log shows', () => {
  it('is one Convention naming the shape, the types in use and verbatim examples', () => {
    const style = verifiedItems(session(conventional)).filter((i) => i.title.startsWith('Commit subjects'));
    expect(style).toHaveLength(1);
    expect(style[0]).toMatchObject({
      type: 'Convention',
      title: 'Commit subjects follow Conventional Commits: `type(scope): summary`',
      dedupHint: 'convention:commit:message-style',
    });
    expect(style[0]!.facts).toContain('Types in use: fix, chore (4 of the last 4 commits');
    expect(style[0]!.facts).toContain('`fix(gateway): update Tailscale configuration');
  });

  it('reads an emoji and a type, shown with a typed subject', () => {
    const style = extractChecked(session(emoji)).items.find((i) => i.title.startsWith('Commit subjects'));
    expect(style?.title).toBe('Commit subjects start with an emoji and a type: `✨ Feat: summary`');
    expect(style?.facts).toContain('(3 of the last 4 commits');
  });

  it('says nothing of a history without a habit, or of words before a colon that are no commit type', () => {
    const plain = [
      'febabe6a Consolidate session state types',
      'e4e7a027 Add pure session phase state machine',
      '6ca42818 Strict JSON settings parsing (#157)',
    ];
    const named = [
      'ad2d134 alice: round 1 — research plan mode',
      'e081dab bob: round 1 — research teammates',
      '5ea305f carol: round 1 — research beads',
    ];
    const twoOnly = conventional.split('\n').slice(0, 2).join('\n');
    for (const log of [plain.join('\n'), named.join('\n'), twoOnly]) {
      expect(extractChecked(session(log)).items.filter((i) => i.title.startsWith('Commit subjects'))).toEqual([]);
    }
  });
});

describe('a repository the host says moved', () => {
  const push = [
    '[main cd7e235] chore: version packages 0.1.0-beta.3',
    ' 18 files changed, 94 insertions(+), 474 deletions(-)',
    'remote: This repository moved. Please use the new location:        ',
    'remote:   git@github.com:obsessiondb/chkit.git        ',
    'To github.com:obsessiondb/chx.git',
    '   355dacf..cd7e235  main -> main',
  ].join('\n');

  it('is a note of the new location, the old remote and how to update a clone', () => {
    const items = verifiedItems(new SessionFixture().prompt('push it').bash('git push', push).say('Pushed.'));
    const moved = items.find((i) => i.title.startsWith('The repository moved'));
    expect(moved).toMatchObject({
      type: 'ArchitectureNote',
      title: 'The repository moved to `git@github.com:obsessiondb/chkit.git`',
    });
    expect(moved!.facts).toContain('to `github.com:obsessiondb/chx.git`');
    expect(moved!.facts).toContain('`git remote set-url origin git@github.com:obsessiondb/chkit.git` updates a clone');
  });

  it('says the session pointed the remote there when it did', () => {
    const { items } = extractChecked(
      new SessionFixture()
        .prompt('push it')
        .bash('git push', push)
        .bash('git remote set-url origin git@github.com:obsessiondb/chkit.git', '')
        .say('Pushed, and origin now points to the new location.'),
    );
    const moved = items.find((i) => i.title.startsWith('The repository moved'));
    expect(moved!.facts).toContain('The session pointed the remote there');
  });
});
