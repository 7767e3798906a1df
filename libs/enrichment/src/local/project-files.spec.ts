import { SessionFixture, verifiedItems } from './session-fixture';

/** A file as Claude Code's Read tool shows it: each line after its number. */
const numbered = (text: string) =>
  text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
    .join('\n');

function readIn(files: Record<string, string>) {
  let session = new SessionFixture().prompt('why does CI fail on typecheck?');
  for (const [path, text] of Object.entries(files)) {
    session = session.tool('Read', { file_path: `/work/app/${path}` }, numbered(text));
  }
  return session.say('CI typechecks before it builds, so the packages have no dist yet.');
}

const notes = (files: Record<string, string>) =>
  verifiedItems(readIn(files)).filter(
    (i) => i.type === 'ArchitectureNote' && /workflow runs|builds and checks|Scripts of|toml/.test(i.title),
  );

/** The first note the files make, which has this title and these facts. */
function expectNote(files: Record<string, string>, title: string, facts: string) {
  const [note] = notes(files);
  expect(note?.title).toBe(title);
  expect(note?.facts).toBe(facts);
  return note;
}

const workflow = `name: CI
on:
  push:
    branches: [main]
jobs:
  verify:
    runs-on: ubuntu-latest
    steps:
      - name: Checkout
        uses: actions/checkout@v4
      - name: Install dependencies
        run: bun install --frozen-lockfile
      - name: Lint
        run: bun run lint
      - name: Typecheck
        run: bun run typecheck
      - name: Notes
        run: |
          echo "multi-line scripts are not one command"
  deploy:
    needs: verify
    if: github.ref == 'refs/heads/main'
    steps:
      - name: Deploy
        run: bun run deploy
`;

const pkg = (name: string, scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, version: '1.0.0', scripts, ...extra }, null, 2);

describe('the project files a session opened', () => {
  it('are what CI runs, step by step, from a workflow it read', () => {
    const ci = expectNote(
      { '.github/workflows/ci.yml': workflow },
      'What the `CI` workflow runs (`.github/workflows/ci.yml`)',
      'Steps, in order. Job `verify`: Install dependencies `bun install --frozen-lockfile`; Lint `bun run lint`; ' +
        'Typecheck `bun run typecheck`; Notes (a script). ' +
        "Job `deploy` (after `verify`, if `github.ref == 'refs/heads/main'`): Deploy `bun run deploy`.",
    );
    expect(ci?.files).toEqual(['.github/workflows/ci.yml']);
  });

  it('are the root package scripts a teammate runs, the workspaces, and packages that share their scripts said once', () => {
    const shared = { build: 'tsc -p tsconfig.json', lint: 'biome lint src', clean: 'rm -rf dist' };
    expectNote(
      {
        'package.json': pkg(
          'shop',
          { build: 'turbo run build', test: 'turbo run test', prepare: 'husky' },
          { description: 'The shop monorepo', workspaces: ['packages/*'], packageManager: 'bun@1.3.5' },
        ),
        'packages/core/package.json': pkg('@shop/core', shared),
        'packages/cart/package.json': pkg('@shop/cart', shared),
      },
      'How `shop` builds and checks itself: The shop monorepo (`package.json`)',
      'Scripts: build `turbo run build`, test `turbo run test`. Workspaces: `packages/*`. Package manager: `bun@1.3.5`. ' +
        '2 packages (`@shop/cart`, `@shop/core`) each run build `tsc -p tsconfig.json`, lint `biome lint src`.',
    );
  });

  it('are a Python project’s name, purpose and configured tools', () => {
    const pyproject = [
      '[project]',
      'name = "claude-code-log"',
      'description = "Convert Claude transcript JSONL files to HTML"',
      'requires-python = ">=3.12"',
      '',
      '[tool.pytest.ini_options]',
      'testpaths = ["test"]',
      '',
      '[tool.pyright]',
      'typeCheckingMode = "strict"',
      '',
      '[tool.ruff]',
      'line-length = 120',
    ].join('\n');
    expectNote(
      { 'pyproject.toml': pyproject },
      '`claude-code-log`: Convert Claude transcript JSONL files to HTML (`pyproject.toml`)',
      'Python >=3.12. Tools configured in pyproject.toml: pytest (testpaths ["test"]), pyright (typeCheckingMode strict), ruff.',
    );
  });

  it('say what a script step does by the programs it runs', () => {
    const deploy = [
      'name: Build and Deploy',
      'jobs:',
      '  deploy:',
      '    steps:',
      '      - name: Build',
      '        run: GOOS=linux GOARCH=amd64 go build -o ../app ./cmd/app/',
      '      - name: Deploy to VPS',
      '        run: |',
      '          # Set up SSH',
      '          mkdir -p ~/.ssh',
      '          rsync -avz -e "ssh -i ~/.ssh/deploy_key" app "root@$VPS_HOST:/srv/app/app-new"',
      '          $SSH "cd /srv/app && \\',
      '            systemctl restart app"',
      '      - name: Health check',
      '        run: |',
      '          sleep 3',
    ].join('\n');
    expectNote(
      { '.github/workflows/deploy.yml': deploy },
      'What the `Build and Deploy` workflow runs (`.github/workflows/deploy.yml`)',
      'Steps, in order. Build `GOOS=linux GOARCH=amd64 go build -o ../app ./cmd/app/`; ' +
        'Deploy to VPS (a script: `rsync -avz -e "ssh -i ~/.ssh/deploy_key" app …`, `systemctl restart app`); ' +
        'Health check (a script).',
    );
  });

  it('read a root package.json alone, and the file only, not a reminder Claude Code appends to it', () => {
    const session = new SessionFixture()
      .prompt('how do I run the tests?')
      .tool(
        'Read',
        { file_path: '/work/app/package.json' },
        `${numbered(pkg('shop', { test: 'jest', build: 'tsc' }))}\n\n<system-reminder>\nWhenever you read a file, consider whether it looks malicious.\n</system-reminder>`,
      )
      .say('Run `npm test`; it runs jest.');
    const note = verifiedItems(session).find((i) => i.title.startsWith('How `shop`'));
    expect(note?.facts).toBe('Scripts: test `jest`, build `tsc`.');
  });

  it('give a step its own name only, and quote lines long enough to be found again', () => {
    const steps = [
      'name: Checks',
      'jobs:',
      '  test:',
      '    steps:',
      '      - name: Set up Node',
      '        uses: actions/setup-node@v4',
      '      - run: npm ci',
      '      - name: Cache',
      '        uses: actions/cache@v4',
      '      - run: make',
    ].join('\n');
    const [ci] = notes({ '.github/workflows/checks.yml': steps });
    expect(ci!.facts).toBe('Steps, in order. `npm ci`; `make`.');
    expect(ci!.evidence.every((e) => e.quote.length >= 12)).toBe(true);
  });

  it('read TOML values as written: quoted strings, comments, arrays over several lines', () => {
    const pyproject = [
      '[project]',
      "name = 'acme'  # the distribution name",
      'description = "Acme tools" # shown on PyPI',
      '',
      '[tool.pytest.ini_options]',
      'testpaths = [',
      '    "tests",',
      '    "integration",',
      ']',
    ].join('\n');
    expectNote(
      { 'pyproject.toml': pyproject },
      '`acme`: Acme tools (`pyproject.toml`)',
      'Tools configured in pyproject.toml: pytest (testpaths ["tests", "integration"]).',
    );
  });

  it('say nothing of other files, a partial package.json, or a workflow without commands', () => {
    expect(
      notes({
        'src/index.ts': 'export const a = 1;',
        'package.json': '{\n  "name": "shop",\n  "scripts": {',
        '.github/workflows/release.yml':
          'name: Release\non: push\njobs:\n  r:\n    steps:\n      - uses: actions/checkout@v4',
      }),
    ).toEqual([]);
  });
});
