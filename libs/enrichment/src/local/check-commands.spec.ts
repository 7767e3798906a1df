import { checkOf } from './check-commands';

describe('checkOf: a command line that checks the project, as a note shows it', () => {
  // Commands as real sessions ran them (bench/quality's transcripts), and what a note names.
  it.each([
    ['npm test', 'npm test'],
    ['npm run check', 'npm run check'],
    ['bun run build 2>&1', 'bun run build'],
    ["bun run --filter '@chkit/core' test 2>&1", "bun run --filter '@chkit/core' test"],
    ['cd /work/app && npm run build 2>&1 | head -50', 'npm run build'],
    ['mise run fmt && mise run lint', 'mise run fmt && mise run lint'],
    [
      'kill $(lsof -ti:8080) 2>/dev/null; sleep 1; go build -o /tmp/web ./test/web.go && setsid /tmp/web > /tmp/web.log 2>&1 &',
      'kill $(lsof -ti:8080); sleep 1; go build -o /tmp/web ./test/web.go && setsid /tmp/web > /tmp/web.log &',
    ],
    [
      'git add nix-darwin/services/sysctl-ptmx && timeout 120 nix flake check --no-build 2>&1 | tail -20',
      'git add nix-darwin/services/sysctl-ptmx && timeout 120 nix flake check --no-build',
    ],
    ['npm install && npm test; echo done', 'npm install && npm test; echo done'],
    ["npx turbo run lint --force --filter='*' 2>&1", "npx turbo run lint --force --filter='*'"],
    ['uv run ty check', 'uv run ty check'],
    ['uv run pytest -x tests/', 'uv run pytest -x tests/'],
    ['python -m pytest', 'python -m pytest'],
    ['python manage.py test accounts', 'python manage.py test accounts'],
    ['cargo test --workspace', 'cargo test --workspace'],
    [
      'go build -o ./entire ./cmd/entire && ENTIRE_TRACE=/tmp/trace.out ./entire help > /dev/null',
      'go build -o ./entire ./cmd/entire && ENTIRE_TRACE=/tmp/trace.out ./entire help',
    ],
    [
      'timeout 60 nix flake check --no-build --show-trace 2>&1 | tail -30',
      'timeout 60 nix flake check --no-build --show-trace',
    ],
    ['bash scripts/check-nix-inline-scripts.sh 2>&1 | tail -5', 'bash scripts/check-nix-inline-scripts.sh'],
    ['./scripts/run_tests.sh', './scripts/run_tests.sh'],
    ['act --container-architecture linux/amd64 -j test', 'act --container-architecture linux/amd64 -j test'],
    ['npx prettier --check .', 'npx prettier --check .'],
    ['CI=1 yarn test:unit', 'CI=1 yarn test:unit'],
    ['npm run format:check', 'npm run format:check'],
    ['mvn clean install', 'mvn clean install'],
    ['./gradlew clean build', './gradlew clean build'],
    ['gradle :app:test', 'gradle :app:test'],
    ['pnpm tsc --noEmit', 'pnpm tsc --noEmit'],
    ['pnpm exec vitest run', 'pnpm exec vitest run'],
    ['uv run --frozen pytest', 'uv run --frozen pytest'],
    ['npx -y tsc', 'npx -y tsc'],
    ['bundle exec rspec', 'bundle exec rspec'],
    ['cargo +nightly test', 'cargo +nightly test'],
    ['node --test', 'node --test'],
    ['make ci', 'make ci'],
    ['npm install\nnpm test', 'npm install ; npm test'],
    ['npm test 2>&1 | tail -5 && echo ok', 'npm test && echo ok'],
    ['npm test &>/dev/null', 'npm test'],
  ])('%s checks with %s', (command, check) => {
    expect(checkOf(command)).toBe(check);
  });

  it.each([
    [
      'a commit that adds a test file',
      'git add packages/core/src/planner.ts packages/core/src/index.test.ts && git commit -m "$(cat <<\'EOF\'\nfix: order\nEOF\n)"',
    ],
    ['a push to a branch named for a build', 'git push -u origin KeKs0r/explore-build-system'],
    ['git check-ignore', 'git check-ignore -v Projects/Scripts/redact_gitleaks_secrets.py'],
    [
      'a file read that greps for check scripts',
      'cat package.json 2>/dev/null | grep -E \'"(format|lint|check)"\' | head -10',
    ],
    ['a search for Makefile targets', 'command rg -n "^(fmt|lint|check|test):" Makefile | head -20'],
    ['the version of a checker', 'npx tsc --version 2>&1'],
    ['a server started in the background', 'cd test && go run claude_web.go &'],
    ['an install', 'npm install'],
    ['a commit whose message names a check', 'git commit -m "fix parser && make test pass"'],
    ['a clean install', 'npm ci'],
    ['an uninstall', 'npm uninstall types'],
    ["a dev server given a script's argument", 'npm run dev -- --mode test'],
    ["a browser's download", 'npx playwright install chromium'],
    ['a checker writing its config', 'npx tsc --init'],
    ["a checker's cache cleared", 'npx jest --clearCache'],
    ["a commit whose message's body names a check", 'git commit -m "$(cat <<\'EOF\'\nnpm test passes now\nEOF\n)"'],
    ['a dev server', 'npm run dev'],
    ['prettier writing files', 'npx prettier --write .'],
    ['ruff formatting', 'ruff format src'],
    ['a process killed', 'kill $(lsof -ti:8080) 2>/dev/null; sleep 1'],
  ])('%s checks nothing', (_, command) => {
    expect(checkOf(command)).toBeUndefined();
  });

  it('reads a line at the metadata cap: its first 2,000 characters, blanks folded', () => {
    // Patterns starting with \s* over 16 KiB of blanks took seconds a line before blanks were folded.
    expect(checkOf(`npm test${' \t'.repeat(8_192)}--silent`)).toBe('npm test');
    expect(checkOf(`${'x'.repeat(2_000)} && npm test`)).toBeUndefined();
  });
});
