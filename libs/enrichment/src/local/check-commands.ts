/**
 * Whether a shell command checks the project: some part of it runs its tests, builds it,
 * type-checks or lints it (`cd pkg && bun run --filter '@x/core' test 2>&1 | tail -5`). A
 * passing check after a fix confirms it, and a note names it ("Checked: npm test passed."); a
 * `git add` of `index.test.ts`, a `cat` that greps for "lint", a `git push` to
 * `explore-build-system` or `tsc --version` check nothing, though each holds a check's word.
 */

/** What a project's scripts that check it are called: `test`, `test:unit`, `lint`, `typecheck`, `build`. */
const CHECK_SCRIPT =
  /^(?:test|tests|spec|e2e|check|checks|lint|typecheck|type-check|types|build|verify|ci|fmt-check|format-check)(?:[:_.-][\w:.-]*)?$/;
/** A script file that checks by its name: `scripts/check-nix-inline-scripts.sh`, `run_tests.sh`. */
const CHECK_SCRIPT_FILE = /(?:^|[-_])(?:test|tests|check|checks|lint|verify)(?:[-_.]|$)/;

/** Programs every run of which checks something. */
const CHECKERS = new Set([
  'jest',
  'vitest',
  'mocha',
  'ava',
  'playwright',
  'cypress',
  'pytest',
  'tox',
  'nox',
  'mypy',
  'pyright',
  'flake8',
  'pylint',
  'tsc',
  'eslint',
  'shellcheck',
  'golangci-lint',
  'rspec',
  'phpunit',
  'ctest',
  'act',
]);
/** Programs that check with one of their subcommands (`cargo test`); prettier with `--check`. */
const CHECKING_SUBCOMMANDS: Record<string, RegExp> = {
  cargo: /^(?:test|build|check|clippy|nextest)$/,
  go: /^(?:test|build|vet)$/,
  dotnet: /^(?:test|build)$/,
  swift: /^(?:test|build)$/,
  mvn: /^(?:test|verify|package|install|compile)$/,
  mvnw: /^(?:test|verify|package|install|compile)$/,
  gradle: /^(?:test|build|check)$/,
  gradlew: /^(?:test|build|check)$/,
  ruff: /^check$/,
  biome: /^(?:check|lint|ci)$/,
  ty: /^check$/,
  deno: /^(?:test|check|lint)$/,
};
/** Runners of a project's own scripts: a later word names the script (`npm run build`, `mise run lint`, `make test`). */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'make', 'just', 'mise', 'task', 'turbo', 'nx', 'rake']);
/** Interpreters given a script: the script's name or a later word says whether it checks (`python manage.py test`). */
const INTERPRETERS = new Set(['bash', 'sh', 'zsh', 'python', 'python3', 'node', 'ruby', 'php', 'perl']);
/** Words before a command that do not change what it runs. */
const PREFIXES = new Set(['time', 'sudo', 'env', 'command', 'exec', 'nice', 'nohup']);
/** Launchers that run a package's binary: `npx tsc`, `uvx ruff check`. */
const LAUNCHERS = new Set(['npx', 'bunx', 'pnpx', 'uvx']);
/** Environments that run a command inside them: `uv run pytest`, `poetry run mypy`. */
const ENVIRONMENTS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye']);

/** What a command's output is piped into only to shorten it for the reader. */
const TRIM_PIPE = /\s*\|\s*(?:head|tail)\b[^|;&]*/g;
/** Where a command ran, when it opens the line: `cd packages/core && bun test`. */
const LEADING_CD = /^cd\s+\S+\s*&&\s*/;

/**
 * The command line that checked the project, as a note shows it, when some part of it checks:
 * the line as it ran (`git add module.nix && nix flake check`: the flake sees only staged
 * files; `go build … && setsid ./server &`: how the server was started), less what only
 * shortened or hid its output and where it ran; undefined when no part checks.
 */
export function checkOf(command: string): string | undefined {
  // A heredoc or a script spread over lines: its first line is the command.
  const [line = ''] = command.split('\n');
  // Redirections first: the `&` of `2>&1` is no background job.
  const plain = line.replace(/\s*\d?>>?\s*(?:&\d|\/dev\/null)/g, '');
  const parts = plain.split(/\s*(?:&&|\|\||;|\|(?!\|)|&(?!&))\s*/);
  if (!parts.some((part) => part.trim() && checks(words(part.trim())))) return undefined;
  const shown = plain.replace(TRIM_PIPE, '').replace(LEADING_CD, '').trim();
  return shown.length <= 300 ? shown : `${shown.slice(0, 299)}…`;
}

function words(segment: string): string[] {
  return segment.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
}

function checks(all: string[]): boolean {
  let at = 0;
  const skip = () => {
    for (;;) {
      const word = all[at];
      if (word === undefined) return;
      if (/^\w+=/.test(word) || PREFIXES.has(word)) at += 1;
      else if (word === 'timeout') at += /^\d/.test(all[at + 1] ?? '') ? 2 : 1;
      else return;
    }
  };
  skip();
  const first = all[at];
  if (first !== undefined && LAUNCHERS.has(first)) at += 1;
  else if (first !== undefined && ENVIRONMENTS.has(first) && all[at + 1] === 'run') at += 2;
  skip();
  const program = (all[at] ?? '').replace(/^.*\//, '');
  const rest = all.slice(at + 1);
  if (!program || rest.some((w) => /^--?(?:version|help|V|h)$/.test(w))) return false;
  if (CHECKERS.has(program)) return true;
  const named = rest.filter((w) => !w.startsWith('-'));
  if (program === 'prettier') return rest.some((w) => w === '--check' || w === '-c');
  const subcommand = CHECKING_SUBCOMMANDS[program];
  if (subcommand) return subcommand.test(named[0] ?? '');
  if (program === 'nix') return named[0] === 'build' || (named[0] === 'flake' && named[1] === 'check');
  if (SCRIPT_RUNNERS.has(program)) return named.some((w) => CHECK_SCRIPT.test(w));
  if (INTERPRETERS.has(program)) {
    const module = rest[0] === '-m' ? rest[1] : undefined;
    if (module !== undefined) return CHECKERS.has(module) || module === 'unittest';
    const script = (named[0] ?? '').replace(/^.*\//, '');
    return CHECK_SCRIPT_FILE.test(script) || named.slice(1).some((w) => CHECK_SCRIPT.test(w));
  }
  // A script of the project's run by its path: `./scripts/run_tests.sh`.
  return /\//.test(all[at] ?? '') && CHECK_SCRIPT_FILE.test(program);
}
