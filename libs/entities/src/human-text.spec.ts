import { humanText } from './human-text';

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
