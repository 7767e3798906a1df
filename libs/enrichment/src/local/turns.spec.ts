import { readWindow } from './local-engine';
import { SessionFixture } from './session-fixture';
import { turnsOf } from './turns';

/** Real (shunkakinoki-dotfiles): the session ends on the edits, with no closing message after them. */
const endsMidWork = () =>
  new SessionFixture()
    .prompt('ok remove the WindowManager defaults from nix-darwin and create a PR')
    .say(
      'There are actually two WindowManager blocks that both write to `com.apple.WindowManager` on every switch, and they conflict (`true` vs `false` for `AppWindowGroupingBehavior`). Removing only one would not stop the reload, so I will remove both.',
    )
    .edit('nix-darwin/config/system.nix')
    .bash('git add nix-darwin/config/system.nix && git status', 'On branch fix/window-defaults');

describe('a turn', () => {
  it('is open while the window ends on work: more of it may come', () => {
    const turns = turnsOf([], endsMidWork().events());
    expect(turns.map((t) => t.closed)).toEqual([false]);
    expect(readWindow(endsMidWork().events()).candidates).toEqual([]);
  });

  it('is over where the session ended, even on a tool’s event, and is read then', () => {
    const events = endsMidWork().events();
    expect(turnsOf([], events, true).map((t) => t.closed)).toEqual([true]);
    const [note] = readWindow(events, [], [], true).candidates;
    expect(note).toMatchObject({ files: ['nix-darwin/config/system.nix'] });
    expect(`${note!.title} ${note!.facts}`).toContain('two WindowManager blocks');
  });

  it('ends where the next prompt starts; only the last turn waits for the session to end', () => {
    const events = endsMidWork()
      .prompt('now push the branch please')
      .bash('git push', 'Everything up-to-date')
      .events();
    expect(turnsOf([], events).map((t) => t.closed)).toEqual([true, false]);
    expect(turnsOf([], events, true).map((t) => t.closed)).toEqual([true, true]);
  });
});
