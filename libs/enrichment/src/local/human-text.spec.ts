import { extractLocally } from './local-engine';
import { humanText } from './human-text';
import { SessionFixture } from './session-fixture';

describe('humanText: what the harness wrote is not the person speaking', () => {
  it.each([
    ['a local command’s output', '<local-command-stdout>See ya!</local-command-stdout>'],
    [
      'a local command caveat',
      '<local-command-caveat>Caveat: The messages below were generated…</local-command-caveat>',
    ],
    ['a background task notification', '<task-notification>\n<task-id>ba85bee</task-id>\n<status>completed</status>'],
    [
      'a skill body',
      'Base directory for this skill: /home/u/.claude/skills/commit\n\n# Git Commit Skill\nAlways sign.',
    ],
    ['an interruption marker', '[Request interrupted by user for tool use]'],
    ['hook output', 'Stop hook feedback:\nRun the linter before you stop.'],
    ['a shell escape', '<bash-input>uv run ty check</bash-input>'],
  ])('%s is nobody’s words', (_, content) => {
    expect(humanText(content)).toBe('');
  });

  it('keeps only the arguments the person typed after a slash command', () => {
    const command =
      '<command-message>commit</command-message>\n<command-name>/commit</command-name>\n' +
      '<command-args>never push to main, the release job does that</command-args>';
    expect(humanText(command)).toBe('never push to main, the release job does that');
    expect(humanText('<command-name>/clear</command-name>\n<command-message>clear</command-message>')).toBe('');
  });

  it('takes harness blocks out of what the person wrote around them', () => {
    const prompt =
      '<system_instruction>\nYou are working inside Conductor. Always rename the branch.\n</system_instruction>\n\n' +
      '<system-reminder>Never use emojis.</system-reminder>\nWhen generating tables and mvs, mvs come first';
    expect(humanText(prompt)).toBe('When generating tables and mvs, mvs come first');
  });
});

describe('extraction never keeps harness text as a rule', () => {
  it('stores no convention from a slash command’s expanded body or a skill, and keeps the person’s own rule', () => {
    const events = new SessionFixture()
      .prompt('<command-name>/clear</command-name>\n<command-message>clear</command-message>')
      .prompt('Checkout fails with a 500. Never call the payment gateway from the cart, it has side effects.')
      .say('Understood: the cart goes through the checkout module from now on.')
      .prompt('<command-message>review</command-message>\n<command-name>/review</command-name>')
      .prompt('# Review\n\nYou must always check every file for style issues. Never approve without tests.')
      .say('Reviewed: the change to `src/cart.ts` looks fine and the tests pass.')
      .prompt(
        '<system_instruction>Always use the prefix "KeKs0r/" before a branch name.</system_instruction>\n' +
          'Please always run the migrations before the tests, because the schema check reads them.',
      )
      .say('Noted: I will run `npm run migrate` before `npm test` from now on.')
      .events();
    const items = extractLocally(events);
    const text = items.map((i) => `${i.title} ${i.facts}`).join('\n');
    expect(text).not.toMatch(/approve without tests|check every file|KeKs0r/);
    expect(items.some((i) => i.type === 'Convention' && /migrations before the tests/.test(i.title))).toBe(true);
    // What the person typed after a built-in command is theirs.
    expect(items.some((i) => i.type === 'Convention' && /payment gateway/.test(i.title))).toBe(true);
  });
});
