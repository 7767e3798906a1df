import { reasonsGiven } from './reasons-given';

describe('the reasons a prompt gives', () => {
  it('are the items of the list under the lead, each with its wrapped lines, without a heading line', () => {
    expect(
      reasonsGiven(
        [
          'rename /whats-next to /vamp',
          'rationale:',
          '',
          '  The case for vamp',
          '',
          '  - Jazz-native: vamping is what musicians do between sections. That is exactly the',
          '  moment this skill serves',
          '  - Imperative verb, one syllable',
          '',
          'Also keep the old name as an alias.',
        ].join('\n'),
      ),
    ).toEqual({
      request: 'rename /whats-next to /vamp',
      reasons: [
        'Jazz-native: vamping is what musicians do between sections. That is exactly the moment this skill serves',
        'Imperative verb, one syllable',
      ],
      rest: 'Also keep the old name as an alias.',
    });
  });

  it('are the paragraph under the lead when there is no list', () => {
    expect(
      reasonsGiven('Switch the CI to pnpm.\n**Why:** \nThe lockfile is pnpm’s.\nIt saves a minute.\n\nThanks!'),
    ).toEqual({
      request: 'Switch the CI to pnpm.',
      reasons: ['The lockfile is pnpm’s. It saves a minute.'],
      rest: 'Thanks!',
    });
  });

  it('end where their list or paragraph does: what follows them is the rest of the prompt', () => {
    expect(
      reasonsGiven(
        'use pnpm for installs in CI\r\nWhy:\r\nThe lockfile is pnpm’s\r\n\r\nNever push to main directly, please.\r\n\r\nSteps:\r\n- a\r\n- b',
      ),
    ).toMatchObject({
      reasons: ['The lockfile is pnpm’s'],
      rest: expect.stringMatching(/^Never push to main directly/),
    });
    expect(reasonsGiven('rename foo to bar\nwhy:\n- clearer\nNever push directly to the main branch.')).toMatchObject({
      reasons: ['clearer'],
      rest: 'Never push directly to the main branch.',
    });
  });

  it('are none without a lead line outside code, or without a request before it', () => {
    expect(reasonsGiven('rename it\nwhy\n- it fits')).toBeUndefined();
    expect(reasonsGiven('the config:\n```yaml\nreason:\n  - 42\n```')).toBeUndefined();
    expect(reasonsGiven('Why:\n- nobody asked')).toBeUndefined();
    expect(reasonsGiven('use pnpm\n## Reasons\n')).toBeUndefined();
  });
});
