import { fixtureEvents } from '../../../test/support/claude-code-fixtures';
import { mentionsOf, textEntities } from './extract';
import { errorSignature } from './error-signature';
import { installedPackages, manifestPackages, declaredSymbols } from './names';
import type { SourceEvent } from './types';

const ev = (over: Partial<SourceEvent>): SourceEvent => ({
  eventId: 'e1',
  type: 'tool_call',
  occurredAt: 0,
  content: '',
  metadata: null,
  ...over,
});

describe('mentionsOf on a real session (fix-type-errors)', () => {
  const events = fixtureEvents('fix-type-errors.jsonl');
  const all = events.flatMap(mentionsOf);

  it('names the file read and edited, marking the edits', () => {
    const file = all.filter((m) => m.kind === 'file' && m.name === 'test/test_cache.py');
    expect(file.length).toBeGreaterThanOrEqual(5);
    expect(file.some((m) => m.edited)).toBe(true);
    expect(file.some((m) => !m.edited)).toBe(true);
    // Absolute paths outside the project name someone's machine, not the project.
    expect(all.filter((m) => m.kind === 'file' && m.name.startsWith('/'))).toEqual([]);
  });

  it('gives the failing type check one signature, with the location stripped', () => {
    const errors = all.filter((m) => m.kind === 'error');
    expect(errors.length).toBe(2);
    expect(new Set(errors.map((e) => e.name)).size).toBe(1);
    expect(errors[0]!.name).toMatch(/^error\[call-non-callable\]: Object of type/);
    expect(errors[0]!.name).not.toMatch(/\d{2,}/);
  });
});

describe('mentionsOf', () => {
  it('reads symbols and packages from an edit of a manifest and of code', () => {
    const code = mentionsOf(
      ev({
        metadata: {
          tool: 'Edit',
          input: {
            file_path: 'src/pack.ts',
            new_string: 'export function assembleContext(req) {}\nclass TokenBudget {}',
          },
        },
      }),
    );
    expect(code.map((m) => `${m.kind}:${m.name}`)).toEqual([
      'file:src/pack.ts',
      'symbol:assembleContext',
      'symbol:TokenBudget',
    ]);
    const manifest = mentionsOf(
      ev({
        metadata: {
          tool: 'Write',
          input: {
            file_path: 'package.json',
            content: '{"name":"x","dependencies":{"zod":"^4.1.0","@nestjs/core":"11.0.0"}}',
          },
        },
      }),
    );
    expect(manifest.filter((m) => m.kind === 'package').map((m) => m.name)).toEqual(['zod', '@nestjs/core']);
  });

  it('reads packages from install commands, and an error from a failed one', () => {
    const install = mentionsOf(
      ev({ metadata: { tool: 'Bash', input: { command: 'npm i -D fast-check@3 @types/node && npm test' } } }),
    );
    expect(install.map((m) => m.name)).toEqual(['fast-check', '@types/node']);
    const failed = mentionsOf(
      ev({
        type: 'error',
        content: "Exit code 1\nError: Cannot find module '/home/a/app/node_modules/zod/index.js'",
        metadata: { tool: 'Bash', command: 'node x.js', isError: true },
      }),
    );
    expect(failed).toEqual([{ kind: 'error', name: 'Error: Cannot find module "…"', eventId: 'e1' }]);
  });

  it('reads files and identifiers in prose, not in tool output', () => {
    const prompt = mentionsOf(
      ev({
        type: 'prompt',
        content: 'Why does `SearchService` call assembleContextPack in libs/search/src/context-pack.ts?',
      }),
    );
    expect(prompt.map((m) => `${m.kind}:${m.name}`).sort()).toEqual([
      'file:libs/search/src/context-pack.ts',
      'symbol:SearchService',
      'symbol:assembleContextPack',
    ]);
    expect(mentionsOf(ev({ type: 'tool_result', content: 'see SearchService in src/a.ts' }))).toEqual([]);
  });
});

describe('names', () => {
  it('finds declarations across languages', () => {
    expect(declaredSymbols('def load_cache(self):\nfunc (c *client) Close() error\nstruct Pack {}')).toEqual([
      'load_cache',
      'Close',
      'Pack',
    ]);
  });

  it('strips versions from installs and manifests', () => {
    expect(installedPackages('pip install "requests>=2" numpy==1.26; uv add httpx')).toEqual([
      'requests',
      'numpy',
      'httpx',
    ]);
    expect(manifestPackages('requirements.txt', 'flask==3.0\n# comment\npydantic>=2\n')).toEqual(['flask', 'pydantic']);
    expect(manifestPackages('go.mod', 'require github.com/posthog/posthog-go v1.9.0\n')).toEqual([
      'github.com/posthog/posthog-go',
    ]);
    expect(manifestPackages('src/a.ts', '"zod": "^4"')).toEqual([]);
  });

  it('reads a manifest of blank lines in one pass', () => {
    // A pattern whose line start ran over every blank line after it took seconds on a large edit.
    const blank = `${'\n'.repeat(1_000_000)}flask==3.0\n`;
    for (const file of ['requirements.txt', 'Cargo.toml', 'go.mod'])
      expect(manifestPackages(file, blank).length).toBeLessThan(2);
    expect(manifestPackages('requirements.txt', blank)).toEqual(['flask']);
  });

  it('reads no install command inside a quoted message', () => {
    expect(installedPackages('git commit -m "Use npm install instead of npm ci to avoid lockfile drift"')).toEqual([]);
    expect(installedPackages(`git commit -m 'switch to pnpm add for speed' && npm i zod`)).toEqual(['zod']);
    // A one-word quoted argument before the command keeps the quotes in step.
    expect(installedPackages('cd "app" && npm i zod && echo "ok go"')).toEqual(['zod']);
    expect(installedPackages(`pip install 'requests>=2' && npm i zod && echo 'all done'`)).toEqual(['requests', 'zod']);
  });

  it('finds files and symbols in item text', () => {
    expect(textEntities('Retry in `sendWebhook` (src/webhooks/sender.ts); see README.md.')).toEqual([
      { kind: 'file', name: 'src/webhooks/sender.ts' },
      { kind: 'file', name: 'README.md' },
      { kind: 'symbol', name: 'sendWebhook' },
    ]);
  });
});

describe('errorSignature of output that is not an error line', () => {
  it('skips progress meters and diff lines, and reads what a carriage return left', () => {
    expect(errorSignature('Rebasing (1/3)\rRebasing (2/3)\rerror: could not apply 1a2b3c4... fix cart')).toBe(
      'error: could not apply <id>... fix cart',
    );
    expect(errorSignature('@@ -1,3 +1,4 @@\n+  throw new Error("cart is empty");\n-  return 0;')).toBeUndefined();
    expect(errorSignature('Receiving objects:  45% (450/1000)')).toBeUndefined();
    // A shell's own prefix and a count inside an error line are not progress or diff lines.
    expect(errorSignature('-bash: pnpm: command not found')).toBe('-bash: pnpm: command not found');
    expect(errorSignature('Tests failed (3/10) in the cart suite')).toBeDefined();
  });
});

describe('errorSignature', () => {
  it('is the same for the same failure at other paths, lines and ids', () => {
    const a = errorSignature('Exit code 128\nfatal: unable to read e53647ba1f1e5203bedff558b482f178db045555');
    const b = errorSignature('fatal: unable to read 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567');
    expect(a).toBe('fatal: unable to read <id>');
    expect(b).toBe(a);
    const c = errorSignature(
      '/Users/a/p/conv.py\n  /Users/a/p/conv.py:184:17 - error: Type of "text_value" is unknown',
    );
    const d = errorSignature('  /home/b/q/other.py:9:2 - error: Type of "x" is unknown');
    expect(c).toBe('error: Type of "…" is unknown');
    expect(d).toBe(c);
  });

  it('is undefined for output that does not read as an error', () => {
    expect(errorSignature('Exit code 1\n---\n---')).toBeUndefined();
  });
});
