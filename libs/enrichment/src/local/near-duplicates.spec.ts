import type { CandidateItem } from '../candidate';
import { readWindow } from './local-engine';
import { adoptingHints, samePoint, withoutNearDuplicates } from './near-duplicates';
import { SessionFixture } from './session-fixture';

const candidate = (title: string, type: CandidateItem['type'] = 'BugFix', hint = `bugfix:x:${title.length}`) =>
  ({
    type,
    title,
    facts: title,
    rationale: null,
    impact: null,
    commitRange: null,
    files: [],
    schemaKey: 'root',
    dedupHint: hint,
    tags: [],
    importance: 3,
    confidence: 0.65,
    resolved: false,
    evidence: [{ eventId: title, quote: title }],
  }) satisfies CandidateItem;

/** A candidate whose facts say more than its title. */
const noted = (title: string, type: CandidateItem['type'], facts: string) => ({ ...candidate(title, type), facts });

describe('near duplicates', () => {
  it('takes a shorter wording of the same point for the same point', () => {
    expect(
      samePoint(
        'GC prunes loose objects the worktree index depends on',
        'Git GC prunes loose objects that the index depends on',
      ),
    ).toBe(true);
    expect(
      samePoint('GC prunes loose objects the worktree index depends on', 'Use Kysely for every query in the API'),
    ).toBe(false);
  });

  it('reads a word and its endings as one word, within a window', () => {
    const kept = withoutNearDuplicates([
      candidate('Root cause: two sort functions gave every `create_*` operation the same rank'),
      candidate('The bug is in the sorting logic: all `create_*` operations share the same rank'),
    ]);
    expect(kept.map((c) => c.title)).toEqual([
      'Root cause: two sort functions gave every `create_*` operation the same rank',
    ]);
    // Not every word ending in "s" is a plural: "process" and "processes" are one word, "status" stays.
    expect(samePoint('The process status shows every retry', 'Processes show their status on every retry')).toBe(true);
  });

  it('folds a later saying into the first of the same type, keeping its evidence', () => {
    const [first, ...rest] = withoutNearDuplicates([
      candidate('GC prunes loose objects the worktree index depends on'),
      candidate('git gc prunes the loose objects the worktree index depends on'),
      // As alike, but of another type and with more to say: a point of its own.
      candidate('Keep auto GC off because it prunes loose objects the index depends on', 'Decision'),
    ]);
    expect(rest.map((c) => c.type)).toEqual(['Decision']);
    expect(first!.evidence).toHaveLength(2);
  });

  it('folds an item of any type whose title and facts a more salient item already holds', () => {
    const fix = noted(
      'Fixed [object][object] display: send the content string, not its wrapper',
      'ImplementationFact',
      'Asked: the issue is for the individual token streaming.',
    );
    const kept = withoutNearDuplicates([
      fix,
      candidate('The issue is for the individual token streaming'),
      // Five of its seven words are in the fix's note: it still says something the note does not.
      candidate('Individual token streaming shows the content wrapper again'),
      // Its title is in the fix's note, its facts are not.
      noted('The issue is for the token streaming', 'Decision', 'Each chunk is sent as its own SSE event.'),
    ]);
    expect(kept.map((c) => c.title)).toEqual([
      fix.title,
      'Individual token streaming shows the content wrapper again',
      'The issue is for the token streaming',
    ]);
    expect(kept[0]!.evidence.map((e) => e.quote)).toEqual([
      fix.title,
      'The issue is for the individual token streaming',
    ]);
  });

  it('lets the later saying of a point stand when it says what the point is now', () => {
    // Real (obsessiondb-chkit): the note of a script made in one turn, its rename a few turns on.
    const made = noted(
      '`scripts/manual-release-bun.ts` is identical to `manual-release.ts` except: uses `bun publish`',
      'ImplementationFact',
      'No `resolveWorkspaceVersions()` call.',
    );
    const now = candidate(
      '`manual-release-bun.ts` is now `manual-release.ts`: no workspace resolution, uses `bun publish`',
      'ImplementationFact',
    );
    const order = [made, now];
    const saidAt = (c: CandidateItem) => order.findIndex((o) => o.title === c.title);
    const [kept, ...rest] = withoutNearDuplicates([made, now], saidAt);
    expect(rest).toEqual([]);
    expect(kept!.title).toBe(now.title);
    expect(kept!.evidence.map((e) => e.quote)).toEqual([now.title, made.title]);
    // A later saying in words of no change folds into the first, as any other does.
    expect(withoutNearDuplicates([now, made], (c) => order.length - saidAt(c)).map((c) => c.title)).toEqual([
      now.title,
    ]);
    const again = candidate(
      '`manual-release-bun.ts` and `manual-release.ts` both use `bun publish`',
      'ImplementationFact',
    );
    expect(withoutNearDuplicates([made, again], (c) => (c === again ? 1 : 0)).map((c) => c.title)).toEqual([
      made.title,
    ]);
  });

  it('keeps the first saying whole when the later one only reports the work done, or is of another type', () => {
    const cause = {
      ...noted(
        'The login redirect loops because the session cookie path was `/api`',
        'BugFix',
        'Set the cookie path to `/` in `src/auth/cookie.ts`. Symptom: ERR_TOO_MANY_REDIRECTS',
      ),
      files: ['src/auth/cookie.ts'],
      rationale: 'The cookie was never sent to `/login`.',
    };
    const done = { ...candidate('The login redirect loop is now fixed in 1.4.1', 'BugFix'), files: ['package.json'] };
    const order = [cause, done];
    const saidAt = (c: CandidateItem) => order.findIndex((o) => o.title === c.title);
    expect(withoutNearDuplicates([cause, done], saidAt)).toEqual([
      expect.objectContaining({ title: cause.title, files: ['src/auth/cookie.ts'], rationale: cause.rationale }),
    ]);
    // Held word for word in a note of another type, a saying in words of a change is still folded.
    const note = noted('Release tooling', 'ArchitectureNote', 'The release script now uses bun publish instead of npm');
    const now = candidate('The release script now uses bun publish instead of npm', 'ImplementationFact');
    expect(withoutNearDuplicates([note, now], (c) => (c === now ? 1 : 0)).map((c) => c.title)).toEqual([
      'Release tooling',
    ]);
  });

  it('keeps the files, the why and the headline span of the first saying when the later one stands', () => {
    const made = {
      ...noted(
        '`scripts/release-bun.ts` publishes with `bun publish`',
        'ImplementationFact',
        'A copy of `release.ts`.',
      ),
      files: ['scripts/release-bun.ts'],
      rationale: 'bun resolves `workspace:*` itself.',
      evidence: ['m1', 'm2', 'm3', 'm4', 'm5'].map((id) => ({ eventId: id, quote: id })),
    };
    const now = {
      ...candidate('`release-bun.ts` is now `release.ts` and publishes with `bun publish`', 'ImplementationFact'),
      files: ['scripts/release.ts'],
      evidence: ['n1', 'n2', 'n3'].map((id) => ({ eventId: id, quote: id })),
    };
    // Said later still folds into the point, in either wording.
    const again = candidate('`scripts/release-bun.ts` publishes with `bun publish` only', 'ImplementationFact');
    const order = [made, now, again];
    const saidAt = (c: CandidateItem) => order.findIndex((o) => o.title === c.title);
    const kept = withoutNearDuplicates([made, now, again], saidAt);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      title: now.title,
      files: ['scripts/release.ts', 'scripts/release-bun.ts'],
      rationale: made.rationale,
    });
    expect(kept[0]!.evidence.map((e) => e.eventId)).toEqual(['n1', 'm1', 'n2', 'n3', 'm2']);
  });

  it('never folds work left open, nor anything into it', () => {
    const kept = withoutNearDuplicates([
      noted(
        'Billing webhooks still need idempotency keys before the v2 API ships',
        'Todo',
        'The v2 API requires idempotency keys on billing webhooks.',
      ),
      candidate('The v2 API requires idempotency keys on billing webhooks', 'ArchitectureNote'),
      candidate('Billing webhooks still need idempotency keys', 'Todo'),
    ]);
    expect(kept.map((c) => c.type)).toEqual(['Todo', 'ArchitectureNote']);
  });

  it('reuses the hint of an item the project holds that says the same', () => {
    const [adopted, fresh] = adoptingHints(
      [candidate('PostHog Close blocks CLI exit with no shutdown timeout'), candidate('Render serves the static site')],
      [
        {
          dedupHint: 'bugfix:posthog:close-exit',
          type: 'BugFix',
          title: 'PostHog Close() blocks the CLI exit: no shutdown timeout',
        },
      ],
    );
    expect(adopted!.dedupHint).toBe('bugfix:posthog:close-exit');
    expect(fresh!.dedupHint).toBe('bugfix:x:29');
  });

  it('takes a stored item for said again only when nearly every word is the same', () => {
    const [next] = adoptingHints(
      [candidate('Release script publishes packages with npm and an OTP prompt')],
      [
        {
          dedupHint: 'bugfix:release:bun',
          type: 'BugFix',
          title: 'Release script publishes packages with bun publish',
        },
      ],
    );
    expect(next!.dedupHint).not.toBe('bugfix:release:bun');
  });
});

describe('a point said again in a later turn', () => {
  it('stands in the words of its last saying when they say what it is now', () => {
    const events = new SessionFixture()
      .prompt('add a bun variant of the release script')
      .edit('scripts/release-bun.ts')
      .say(
        'Created `scripts/release-bun.ts`: it is identical to `release.ts` except that it uses `bun publish` and skips `resolveWorkspaceVersions()`.',
      )
      .prompt('ok that worked, make it the only release script')
      .bash('git mv scripts/release-bun.ts scripts/release.ts', '')
      .say('`release-bun.ts` is now `release.ts`: it skips `resolveWorkspaceVersions()` and uses `bun publish`.')
      .events();
    const titles = readWindow(events).candidates.map((c) => c.title);
    expect(titles.filter((t) => t.includes('release'))).toEqual([
      '`release-bun.ts` is now `release.ts`: it skips `resolveWorkspaceVersions()` and uses `bun publish`',
    ]);
  });
});

describe('tags the session wrote', () => {
  it('are each kept as written, however alike', () => {
    const events = new SessionFixture()
      .say('Done. [MEMORY: implementation: Benchmark item mark1 recorded for lag measurement]')
      .say('Done. [MEMORY: implementation: Benchmark item mark2 recorded for lag measurement]')
      .events();
    const hints = [
      {
        dedupHint: 'implementation:x:y',
        type: 'ImplementationFact',
        title: 'Benchmark item mark0 recorded for lag measurement',
      },
    ];
    expect(readWindow(events, [], hints).candidates.map((c) => c.title)).toEqual([
      'Benchmark item mark1 recorded for lag measurement',
      'Benchmark item mark2 recorded for lag measurement',
    ]);
  });
});
