import { messagePoints } from './message-points';

describe('messagePoints', () => {
  it('reads prose sentence by sentence, quoting each verbatim, the first opening its paragraph', () => {
    const text = 'Found it. The problem is a **corrupted index file** in this worktree.';
    expect(messagePoints(text)).toEqual([
      {
        quote: 'Found it.',
        text: 'Found it.',
        section: undefined,
        kind: 'sentence',
        next: 'The problem is a **corrupted index file** in this worktree.',
        opensParagraph: true,
      },
      {
        quote: 'The problem is a **corrupted index file** in this worktree.',
        text: 'The problem is a **corrupted index file** in this worktree.',
        section: undefined,
        kind: 'sentence',
      },
    ]);
  });

  it('reads a paragraph led by a bold label as one point, its later sentences going on from the first', () => {
    const text =
      '**Root cause:** With `moduleResolution: "NodeNext"`, the `paths` entries never resolve. ' +
      'It fell back to the `exports` field pointing to `./dist/index.d.ts`. ' +
      'It only worked locally because you had a `dist` from a previous build.\n\nPlain prose. Two sentences.';
    const [labelled, ...rest] = messagePoints(text);
    const first = '**Root cause:** With `moduleResolution: "NodeNext"`, the `paths` entries never resolve.';
    expect(labelled).toEqual({
      quote: first,
      text: first,
      label: 'Root cause',
      section: undefined,
      kind: 'sentence',
      continues: [
        'It fell back to the `exports` field pointing to `./dist/index.d.ts`.',
        'It only worked locally because you had a `dist` from a previous build.',
      ],
    });
    expect(rest.map((p) => p.text)).toEqual(['Plain prose.', 'Two sentences.']);
    // A numbered label is no sentence of its own.
    expect(
      messagePoints('**6. Memory Leak Prevention** - `{ once: true }` abort listeners').map((p) => p.text),
    ).toEqual(['**6. Memory Leak Prevention** - `{ once: true }` abort listeners']);
    // A bold lead that runs on into its sentence labels nothing past it.
    expect(
      messagePoints('**Reset the index** with `git reset`. Then run the tests again.')[0]?.continues,
    ).toBeUndefined();
  });

  it('makes a list and the line that introduces it one point, summarised by the items’ bold labels', () => {
    const text = [
      "Here's the root cause chain:",
      '',
      "1. **go-git's `SetEncodedObject` creates loose objects** — every checkpoint save adds blobs.",
      '2. **Loose object count exceeds `gc.auto` threshold** — the default is 6700.',
    ].join('\n');
    const [sentence, list, ...items] = messagePoints(text);
    expect(sentence).toMatchObject({ kind: 'sentence', quote: "Here's the root cause chain:" });
    expect(list).toMatchObject({
      kind: 'list',
      quote: "Here's the root cause chain:",
      text: "Here's the root cause chain: go-git's `SetEncodedObject` creates loose objects; Loose object count exceeds `gc.auto` threshold",
      list: 0,
    });
    // Each item stands too, with its label, its place in the list, and more to say than the summary.
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'item',
        label: "go-git's `SetEncodedObject` creates loose objects",
        text: "go-git's `SetEncodedObject` creates loose objects: every checkpoint save adds blobs.",
        quote: "**go-git's `SetEncodedObject` creates loose objects** — every checkpoint save adds blobs.",
        lead: "Here's the root cause chain:",
        list: 0,
        detail: true,
      }),
      expect.objectContaining({ kind: 'item', list: 0 }),
    ]);
  });

  it('summarises a long item by its leading clause, never cut mid-phrase', () => {
    // Real (shunkakinoki-dotfiles): the summary stopped at "and `/usr/bin/*`,…" and "- provides…".
    const text = [
      '**New: `hosts/nixos/linuxbrew.nix`** - opt-in NixOS module (takes `username`):',
      "- `services.envfs.enable` - supplies `/bin/bash` (brew's shebang is `#!/bin/bash -pu`) and `/usr/bin/*`, with `${pkgs.bash}/bin/bash` in the fallback path",
      '- `programs.nix-ld` + libs (glibc, libgcc, libxcrypt-legacy, zlib, ncurses, openssl, curl) - provides `/lib64/ld-linux-x86-64.so.2` for bottles',
    ].join('\n');
    const list = messagePoints(text).find((p) => p.kind === 'list')!;
    expect(list.text).toBe(
      '**New: `hosts/nixos/linuxbrew.nix`** - opt-in NixOS module (takes `username`): ' +
        "`services.envfs.enable` - supplies `/bin/bash` (brew's shebang is `#!/bin/bash -pu`) and `/usr/bin/*`; " +
        '`programs.nix-ld` + libs (glibc, libgcc, libxcrypt-legacy, zlib, ncurses, openssl, curl)',
    );
  });

  it('reads an item into its sub-items, and a label without a separator as one sentence', () => {
    const text = [
      '**Summary of changes:**',
      '2. Fixed PostHog telemetry blocking CLI exit by setting:',
      '   - `ShutdownTimeout: 100ms` - caps how long `Close()` waits',
      '   - `BatchUploadTimeout: 200ms`',
      '- **Reset the index** with `git read-tree HEAD` — loses staged changes',
    ].join('\n');
    const items = messagePoints(text).filter((p) => p.kind === 'item');
    expect(items.map((i) => i.text)).toEqual([
      'Fixed PostHog telemetry blocking CLI exit by setting: `ShutdownTimeout: 100ms` - caps how long `Close()` waits; `BatchUploadTimeout: 200ms`',
      'Reset the index with `git read-tree HEAD` — loses staged changes',
    ]);
    expect(items[0]).toMatchObject({ detail: true, lead: '**Summary of changes:**' });
  });

  it('takes a heading as the lead of the list under it, and as the section of what follows', () => {
    const text = '## CSS changes (`tokenizer.css:64-73`)\n- Removed the `display: ruby-base` properties\n\nDone.';
    const points = messagePoints(text);
    expect(points[0]).toMatchObject({
      kind: 'list',
      quote: 'CSS changes (`tokenizer.css:64-73`)',
      text: 'CSS changes (`tokenizer.css:64-73`): Removed the `display: ruby-base` properties',
      section: 'CSS changes (`tokenizer.css:64-73`)',
    });
    expect(points.at(-1)).toMatchObject({
      kind: 'sentence',
      text: 'Done.',
      section: 'CSS changes (`tokenizer.css:64-73`)',
    });
  });

  it('leaves the number of a numbered heading or bold label out of what it says, the heading quoted as written', () => {
    // Real (M-Thisness-M-Claude): "#### 3. **Comprehensive Test Suite** (`tests/…`)" above its list.
    const text =
      '#### 3. **Comprehensive Test Suite** (`tests/test_gitleaks_redaction.py`)\n   - Tests Anthropic API key redaction\n   - Tests AWS key redaction';
    expect(messagePoints(text)[0]).toMatchObject({
      kind: 'list',
      quote: '3. **Comprehensive Test Suite** (`tests/test_gitleaks_redaction.py`)',
      text: 'Comprehensive Test Suite (`tests/test_gitleaks_redaction.py`): Tests Anthropic API key redaction; Tests AWS key redaction',
      section: 'Comprehensive Test Suite (`tests/test_gitleaks_redaction.py`)',
    });
    // So does a bold label's.
    expect(
      messagePoints('- **2. Build Compliance Fixed** - no missing imports, and `npm run build` succeeds again')[0],
    ).toMatchObject({
      label: 'Build Compliance Fixed',
      text: 'Build Compliance Fixed: no missing imports, and `npm run build` succeeds again',
    });
    // A number that is no enumerator, such as a year, stays.
    expect(messagePoints('## 2026 roadmap\n- Ship the CLI first')[0]!.section).toBe('2026 roadmap');
  });

  it('reads a short code block as part of the sentence before it and drops long output', () => {
    const text = [
      'The simplest way:',
      '```',
      'git read-tree HEAD',
      '```',
      'Output was:',
      '```',
      ...Array.from({ length: 5 }, (_, i) => `line ${i}`),
      '```',
    ].join('\n');
    const points = messagePoints(text);
    expect(points.map((p) => p.text)).toEqual(['The simplest way: `git read-tree HEAD`', 'Output was:']);
    // The quote stays as the message has it, so evidence still verifies.
    expect(points[0]!.quote).toBe('The simplest way:');
  });

  it('numbers the lists of a message in order', () => {
    const text = 'Options:\n- one thing here\n\nThen:\n- another thing';
    expect(messagePoints(text).map((p) => [p.kind, p.list])).toEqual([
      ['sentence', undefined],
      ['list', 0],
      ['item', 0],
      ['sentence', undefined],
      ['list', 1],
      ['item', 1],
    ]);
  });
});
