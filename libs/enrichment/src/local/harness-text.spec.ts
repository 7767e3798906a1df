import { extractLocally } from './local-engine';
import { SessionFixture } from './session-fixture';

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
