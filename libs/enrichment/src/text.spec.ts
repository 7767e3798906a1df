import fc from 'fast-check';
import { TAG_PATTERN } from '@memex/domain';
import {
  asTitle,
  localLinksAsPaths,
  codeTopic,
  firstSentence,
  normalizeWhitespace,
  significantWords,
  slug,
  topicWord,
  truncateWords,
} from './text';

/** One test a row: what `read` makes of each text the row names. */
function eachReads<T>(read: (text: string) => T, rows: [string, ...[text: string, out: T][]][]) {
  it.each(rows)('%s', (_, ...cases) => {
    for (const [text, expected] of cases) expect(read(text)).toEqual(expected);
  });
}

describe('normalizeWhitespace', () => {
  it('collapses every run of whitespace to one space and trims', () => {
    expect(normalizeWhitespace('  use\n\tKysely   for\r\n\r\nqueries \u00a0')).toBe('use Kysely for queries');
  });

  it('leaves single-spaced text alone and empties blank text', () => {
    expect(normalizeWhitespace('already fine')).toBe('already fine');
    expect(normalizeWhitespace(' \n\t ')).toBe('');
  });
});

describe('significantWords', () => {
  eachReads(significantWords, [
    [
      'lowercases and drops stopwords',
      ['We decided to use PostgreSQL over MongoDB for the ledger', ['postgresql', 'mongodb', 'ledger']],
    ],
    [
      'drops numbers with separators too (versions, counters), so hints do not hinge on them',
      ['#12.0 retried 1.2.3 node-20 v1.2', ['retried', 'node-20', 'v1-2']],
    ],
    [
      'drops plain numbers and single characters but keeps words with digits',
      ['Retry 3 times, wait 250 ms, x v2 oauth2', ['retry', 'times', 'wait', 'ms', 'v2', 'oauth2']],
    ],
    [
      'keeps dotted, underscored and hyphenated names as one hyphenated word',
      ['Edit token_refresh.ts and auth-guard', ['edit', 'token-refresh-ts', 'auth-guard']],
    ],
    ['returns nothing for text without words', ['', []], ['the and of 42 !!', []]],
  ]);
});

describe('topicWord', () => {
  it('skips action words such as add and fix', () => {
    expect(topicWord(['add', 'retry', 'webhook'])).toBe('retry');
    expect(topicWord(['fix', 'fixed', 'root', 'cause', 'ledger'])).toBe('ledger');
  });

  it('takes the first word when it is not an action', () => {
    expect(topicWord(['webhook', 'add'])).toBe('webhook');
  });

  it('is undefined when every word is an action, or there are none', () => {
    expect(topicWord(['fix', 'bug', 'update'])).toBeUndefined();
    expect(topicWord([])).toBeUndefined();
  });

  it('skips what a sentence leads with that names nothing: a reply, a hedge, a count, a step', () => {
    expect(topicWord(significantWords('Yes, still failing on the ledger'))).toBe('ledger');
    expect(topicWord(significantWords('Something in the release script broke'))).toBe('release');
    expect(topicWord(significantWords('New module for the webhook sender'))).toBe('module');
    expect(topicWord(significantWords('Hmm, one more thing'))).toBe('thing');
  });
});

describe('codeTopic', () => {
  it('is the first code name the opening quotes: an identifier whole, a command by what it runs', () => {
    expect(codeTopic('Changed `bun publish` to `npm publish` in the release script')).toBe('publish');
    expect(codeTopic('Reset the index with `git read-tree HEAD`')).toBe('read-tree');
    expect(codeTopic('`npm run build` fails on a fresh checkout')).toBe('build');
    expect(codeTopic('Raise `kern.tty.ptmx_max` to 999 via launchd')).toBe('kern-tty-ptmx-max');
    expect(codeTopic('Run `fix` and then `requireUser()` at the top')).toBe('requireuser');
  });

  it('leaves a command quoted past the opening to the words', () => {
    expect(codeTopic('Fixed the upload race in the chunked sender; verified with `npm run test`')).toBeUndefined();
  });

  it('is undefined without a code name', () => {
    expect(codeTopic('The release script publishes with npm')).toBeUndefined();
    expect(codeTopic('An unclosed `tick')).toBeUndefined();
  });
});

describe('slug', () => {
  it('joins lowercase words with hyphens, five at most by default', () => {
    expect(slug(['token', 'refresh'])).toBe('token-refresh');
    expect(slug(['a1', 'b2', 'c3', 'd4', 'e5', 'f6'])).toBe('a1-b2-c3-d4-e5');
  });

  it('takes at most `max` words', () => {
    expect(slug(['auth', 'token', 'refresh'], 1)).toBe('auth');
    expect(slug(['auth', 'token', 'refresh'], 2)).toBe('auth-token');
  });

  it('drops other characters and collapses hyphens', () => {
    expect(slug(['token--refresh', '-auth-', 'c#'])).toBe('token-refresh-auth-c');
  });

  it('names a word of another script by a stable ASCII token, so such notes get hints of their own', () => {
    const korean = slug(['언어', '정책']);
    expect(korean).toMatch(/^u[0-9a-z]+-u[0-9a-z]+$/);
    expect(slug(['언어', '정책'])).toBe(korean);
    expect(slug(['언어', '템플릿'])).not.toBe(korean);
  });

  it('is "general" rather than empty', () => {
    expect(slug([])).toBe('general');
    expect(slug(['', '--', '!!!'])).toBe('general');
  });

  it('is at most 60 characters and never ends in a hyphen', () => {
    expect(slug(['x'.repeat(59), 'yy'])).toBe('x'.repeat(59));
    expect(slug(['x'.repeat(100)])).toBe('x'.repeat(60));
  });

  it('always yields a tag-shaped slug of at most 60 characters', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.integer({ min: 1, max: 10 }), (words, max) => {
        const out = slug(words, max);
        expect(out.length).toBeLessThanOrEqual(60);
        expect(out).toMatch(TAG_PATTERN);
      }),
    );
  });
});

describe('truncateWords', () => {
  it('leaves text of at most `max` characters alone', () => {
    expect(truncateWords('exactly ten', 11)).toBe('exactly ten');
    expect(truncateWords('', 5)).toBe('');
  });

  it('cuts longer text at a word boundary and adds an ellipsis', () => {
    expect(truncateWords('alpha beta gamma delta', 15)).toBe('alpha beta…');
  });

  it('drops punctuation left dangling at the cut', () => {
    expect(truncateWords('alpha beta, gamma delta', 13)).toBe('alpha beta…');
  });

  it('cuts inside a word when no space falls in the second half', () => {
    expect(truncateWords('x'.repeat(30), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(truncateWords('a supercalifragilistic word', 12)).toBe('a supercali…');
  });

  it('never returns more than `max` characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (text, max) => {
        const out = truncateWords(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (text.length > max) expect(out.endsWith('…')).toBe(true);
        else expect(out).toBe(text);
      }),
    );
  });
});

describe('firstSentence', () => {
  eachReads(firstSentence, [
    ['takes the first sentence', ['Use Kysely. Never Prisma.', 'Use Kysely.'], ['Is it cached? Yes!', 'Is it cached?']],
    [
      'does not end a sentence at a dot inside a word',
      ['Node 20.19 is required. Older fails.', 'Node 20.19 is required.'],
    ],
    [
      'takes the first non-blank line when there is no sentence end',
      ['\n  \n  Switch  to   pnpm\nthen rebuild', 'Switch to pnpm'],
    ],
    ['is empty for blank text', [' \n\n ', '']],
  ]);

  it('truncates at a word boundary to `max` characters', () => {
    const out = firstSentence('alpha beta gamma delta epsilon zeta eta theta.', 20);
    expect(out).toBe('alpha beta gamma…');
    expect(out.length).toBeLessThanOrEqual(20);
  });
});

describe('asTitle', () => {
  eachReads(asTitle, [
    [
      'capitalizes the first letter and drops trailing periods and whitespace',
      ['use Kysely for queries.  ', 'Use Kysely for queries'],
      ['wait for it...', 'Wait for it'],
    ],
    ['normalizes whitespace', ['  switch\n\tto   pnpm ', 'Switch to pnpm']],
    ['keeps a trailing question mark and is empty for empty text', ['why not Redis?', 'Why not Redis?'], ['', '']],
  ]);

  it('truncates to `max` characters', () => {
    expect(asTitle('alpha beta gamma delta', 15)).toBe('Alpha beta…');
    expect(asTitle('x '.repeat(200)).length).toBeLessThanOrEqual(120);
  });
});

describe('localLinksAsPaths', () => {
  const unchanged = (text: string): [string, string] => [text, text];
  eachReads(localLinksAsPaths, [
    [
      // As Claude Code in an editor links the files it changed (Safecast, shunkakinoki-dotfiles).
      'reads a link to a file as the path it points at, in code, without its line',
      [
        '[tool_device_history.go:11](go/cmd/mcp-server/tool_device_history.go#L11): Now specifies mobile sensors',
        '`go/cmd/mcp-server/tool_device_history.go`: Now specifies mobile sensors',
      ],
      [
        'guarded in [fish](home-manager/programs/fish/default.nix)',
        'guarded in `home-manager/programs/fish/default.nix`',
      ],
      ['both test files ([claude_web.go](./test/claude_web.go))', 'both test files (`test/claude_web.go`)'],
      ['set in [flake.nix:68](flake.nix:68)', 'set in `flake.nix`'],
      ['the dock in [dock.nix:21](nix-darwin/config/dock.nix:21)', 'the dock in `nix-darwin/config/dock.nix`'],
    ],
    [
      'takes the label when a space broke the target, an escaped space as a space, and leaves a title out',
      ['[.github/workflows/deploy.yml](. github/workflows/deploy.yml#L63-L89)', '`.github/workflows/deploy.yml`'],
      ['[webite entry.go](test/webite%20entry.go)', '`test/webite entry.go`'],
      ['see [guide](docs/guide.md "Setup guide")', 'see `docs/guide.md`'],
    ],
    [
      'leaves a web link, an anchor, code, an image and what is no link as written',
      unchanged('Created the PR: [Fix MV ordering](https://github.com/obsessiondb/chkit/pull/34)'),
      unchanged('write to [the team](mailto:team@example.com)'),
      unchanged('see [the section](#setup) below'),
      unchanged('placeholders: `[text](url)` in the template'),
      unchanged('placeholders: ``[a](b)`` in the template'),
      unchanged('Calls handlers[type](event) for every event.'),
      unchanged('The screenshot: ![shot](docs/shot.png)'),
      unchanged('[MEMORY: decision] no link here'),
    ],
  ]);
});
