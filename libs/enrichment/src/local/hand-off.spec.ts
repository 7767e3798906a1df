import type { CandidateItem, ExistingHint } from '../candidate';
import { planSessionCap } from '../session-cap';
import { EvidenceIndex } from '../verify';
import { readWindow } from './local-engine';
import { SessionFixture } from './session-fixture';
import { currentTurn } from './turns';

const todos = (items: readonly CandidateItem[]) => items.filter((i) => i.type === 'Todo');

/** A session whose last turn documents a fix and ends on `closing`. */
function session(closing: string): SessionFixture {
  return new SessionFixture()
    .prompt('git status in the worktree says the index is corrupt, can you document the fix?')
    .edit('docs/KNOWN_LIMITATIONS.md')
    .say(
      `Done. Added the worktree GC corruption issue with root cause and recovery steps to \`docs/KNOWN_LIMITATIONS.md\`.\n\n${closing}`,
    );
}

describe('what a session leaves open at its end', () => {
  it('keeps an offer to act that nobody answered as an open Todo, quoting it', () => {
    const events = session('Want me to also set `gc.auto 0` on your repo now?').events();
    const [todo] = todos(readWindow(events).candidates);
    expect(todo).toMatchObject({
      title: 'Offered at the end, not taken up: Want me to also set `gc.auto 0` on your repo now?',
      resolved: false,
    });
    expect(new EvidenceIndex(events).verify(todo!).ok).toBe(true);
  });

  it('is worth the least a kept item may be, so it never pushes a held note out of a full session', () => {
    const items = readWindow(session('Want me to also set `gc.auto 0` on your repo now?').events()).candidates;
    const [todo] = todos(items);
    for (const other of items.filter((i) => i !== todo)) expect(todo!.salience!).toBeLessThan(other.salience!);
    // A session at its cap holding the least salient note the engine writes (a finding scored 4).
    const held = [{ id: 'held-note', salience: 0.393 }];
    expect(planSessionCap(held, [todo!.salience!], 1)).toEqual({ admitted: [], displaced: [] });
  });

  it('keeps a step handed to the person, with the command block and the words after it', () => {
    const events = session(
      'Needs an on-device rebuild. On matic:\n\n```bash\nmake switch\n```\n\nThen `brew --version`.',
    ).events();
    const [todo] = todos(readWindow(events).candidates);
    expect(todo?.title).toBe('Left to the person at the end: Needs an on-device rebuild');
    expect(todo?.facts).toMatch(/^Needs an on-device rebuild. On matic:/);
    expect(todo?.facts).toContain('`make switch`');
    expect(new EvidenceIndex(events).verify(todo!).ok).toBe(true);
    expect(todo?.facts).toContain('Then `brew --version`.');
  });

  it('reads "ready for you to" and an opening "Run" as steps handed over', () => {
    for (const closing of [
      "The changes are ready for you to commit and deploy when you're ready!",
      'Run `sudo sysctl -w kern.tty.ptmx_max=999` to verify the ceiling.',
    ]) {
      expect(todos(readWindow(session(closing).events()).candidates).map((t) => t.title)).toEqual([
        `Left to the person at the end: ${closing.replace(/\.$/, '')}`,
      ]);
    }
  });

  it('is no Todo when the offer is only to explain, look or help, or the message ends on a statement', () => {
    for (const closing of [
      'Want me to walk you through how the recovery works?',
      'Let me know if you need anything else!',
      'The index is rebuilt and `git status` is clean again.',
      'You can now use `act` to test the workflow locally.',
    ]) {
      expect({ closing, todos: todos(readWindow(session(closing).events()).candidates) }).toEqual({
        closing,
        todos: [],
      });
    }
  });

  it('takes a "Then …" step with the step and command before it, and says what the turn did', () => {
    const events = session(
      'Claude Code caches a snapshot of the plugin at `~/.claude/plugins/cache/local/duet/`.\n\n```bash\nrm -rf ~/.claude/plugins/cache/local/duet/\n```\n\nThen restart Claude Code.\n\nAlso, the docs build is green again.',
    ).events();
    const [todo] = todos(readWindow(events).candidates);
    expect(todo?.facts).toBe(
      'Claude Code caches a snapshot of the plugin at `~/.claude/plugins/cache/local/duet/`. `rm -rf ~/.claude/plugins/cache/local/duet/` Then restart Claude Code. ' +
        'Done before it: Added the worktree GC corruption issue with root cause and recovery steps to `docs/KNOWN_LIMITATIONS.md`.',
    );
    expect(todo?.files).toEqual(['docs/KNOWN_LIMITATIONS.md']);
    expect(new EvidenceIndex(events).verify(todo!).ok).toBe(true);
  });

  it('is no Todo when the person answers the offer, even in two words', () => {
    const events = session('Want me to copy it into the repo and commit it?').prompt('yes please').events();
    expect(todos(readWindow(events).candidates)).toEqual([]);
  });

  it('is no Todo when the person answers the offer in the same window', () => {
    const events = session('Want me to also set `gc.auto 0` on your repo now?')
      .prompt('no thanks, I will do it myself later')
      .say('Understood, leaving the repository configuration as it is.')
      .events();
    expect(todos(readWindow(events).candidates)).toEqual([]);
  });

  describe('over two windows', () => {
    const all = session('Want me to also set `gc.auto 0` on your repo now?')
      .prompt('yes please, set it on this repo')
      .bash('git config gc.auto 0', '')
      .say('Set `gc.auto 0` on this repository: git will no longer prune loose objects on its own.')
      .events();
    const cut = all.findIndex((e) => e.type === 'prompt' && e.content.startsWith('yes please'));
    const first = readWindow(all.slice(0, cut));
    const offered = todos(first.candidates)[0]!;
    const held: ExistingHint[] = [{ dedupHint: offered.dedupHint, type: 'Todo', title: offered.title }];

    it('resolves the Todo an earlier window left open once a reply follows it, under its hint', () => {
      const second = readWindow(all.slice(cut), currentTurn(all.slice(0, cut)), held);
      const answered = todos(second.candidates).find((t) => t.dedupHint === offered.dedupHint);
      expect(answered).toMatchObject({ title: offered.title, resolved: true });
      expect(new EvidenceIndex(all).verify(answered!).ok).toBe(true);
    });

    it('makes no item of an answered offer that no window held', () => {
      const second = readWindow(all.slice(cut), currentTurn(all.slice(0, cut)), []);
      expect(todos(second.candidates).filter((t) => t.title === offered.title)).toEqual([]);
    });

    it('resolves it too when the window cut the turn after the offer and the turn goes on', () => {
      const turn = session('Should I also run `git gc --prune=now` to clean up?')
        .bash('git count-objects -v', 'count: 12')
        .say('There are only 12 loose objects, so no clean-up is needed after all.')
        .events();
      const stop = turn.findIndex((e) => e.type === 'tool_call' && e.content.includes('count-objects'));
      const early = todos(readWindow(turn.slice(0, stop)).candidates)[0]!;
      expect(early.resolved).toBe(false);
      const later = readWindow(turn.slice(stop), currentTurn(turn.slice(0, stop)), [
        { dedupHint: early.dedupHint, type: 'Todo', title: early.title },
      ]);
      expect(todos(later.candidates).find((t) => t.title === early.title)?.resolved).toBe(true);
    });
  });
});
