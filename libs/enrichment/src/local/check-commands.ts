import { withoutQuotedText } from '@memex/entities';

/**
 * Whether a shell command checks the project: some part of it runs its tests, builds it,
 * type-checks or lints it (`cd pkg && bun run --filter '@x/core' test 2>&1 | tail -5`). A
 * passing check after a fix confirms it, and a note names it ("Checked: npm test passed."); a
 * `git add` of `index.test.ts`, a `cat` that greps for "lint", a `git push` to
 * `explore-build-system` or `tsc --version` check nothing, though each holds a check's word.
 */

/** What a project's scripts that check it are called: `test`, `test:unit`, `lint`, `typecheck`, `format:check`. */
const CHECK_SCRIPT =
  /^(?:(?:test|tests|spec|e2e|check|checks|lint|typecheck|type-check|types|build|verify|ci)(?:[:_.-][\w:.-]*)?|(?:fmt|format)[:_-]check)$/;
/** A script file that checks by its name: `scripts/check-nix-inline-scripts.sh`, `run_tests.sh`. */
const CHECK_SCRIPT_FILE = /(?:^|[-_])(?:test|tests|check|checks|lint|verify)(?:[-_.]|$)/;

/** Programs every run of which checks something (but for the flags in NOT_A_RUN). */
const CHECKERS = new Set([
  'jest',
  'vitest',
  'mocha',
  'ava',
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
/** Flags that ask a checker about itself instead of running it: `tsc --version`, `jest --clearCache`. */
const NOT_A_RUN = /^--?(?:version|help|v|V|h|init|clearCache|showConfig|list-files)$/;
/** Programs that check with their first subcommand (`cargo test`, `go vet`); prettier with `--check`. */
const CHECKING_SUBCOMMANDS: Record<string, RegExp> = {
  cargo: /^(?:test|build|check|clippy|nextest)$/,
  go: /^(?:test|build|vet)$/,
  dotnet: /^(?:test|build)$/,
  swift: /^(?:test|build)$/,
  ruff: /^check$/,
  biome: /^(?:check|lint|ci)$/,
  ty: /^check$/,
  deno: /^(?:test|check|lint)$/,
  playwright: /^test$/,
  cypress: /^run$/,
};
/** Build tools whose goals or tasks may come after others: `mvn clean install`, `gradle :app:test`. */
const CHECKING_GOALS: Record<string, RegExp> = {
  mvn: /^(?:test|verify|package|install|compile)$/,
  mvnw: /^(?:test|verify|package|install|compile)$/,
  gradle: /(?:^|:)(?:test|build|check)$/,
  gradlew: /(?:^|:)(?:test|build|check)$/,
};
/** Package managers: `npm test`, `yarn lint`, `pnpm tsc`, and a script or binary after `run` or `exec`. */
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Runners of a project's own tasks: `make test`, `mise run lint`, `turbo run build`. */
const TASK_RUNNERS = new Set(['make', 'just', 'mise', 'task', 'turbo', 'nx', 'rake']);
/** What comes before the script or binary a package manager or task runner runs. */
const RUN_VERBS = new Set(['run', 'run-script', 'exec', 'x', 'dlx']);
/** Interpreters given a script: the script's name or a later word says whether it checks (`python manage.py test`). */
const INTERPRETERS = new Set(['bash', 'sh', 'zsh', 'python', 'python3', 'node', 'ruby', 'php', 'perl']);
/** Words before a command that do not change what it runs. */
const PREFIXES = new Set(['time', 'sudo', 'env', 'command', 'exec', 'nice', 'nohup']);
/** Launchers that run a package's binary: `npx tsc`, `uvx ruff check`. */
const LAUNCHERS = new Set(['npx', 'bunx', 'pnpx', 'uvx']);
/** Environments that run a command inside them: `uv run pytest`, `poetry run mypy`, `bundle exec rspec`. */
const ENVIRONMENTS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye', 'bundle']);

/** A line is read this far: a check's command line is short, and the rules below must stay linear. */
const MAX_LINE = 2000;
/** What a command's output is piped into only to shorten it for the reader. */
const TRIM_PIPE = / ?\| ?(?:head|tail)\b[^|;&]*?(?= ?[|;&]|$)/g;
/** Where a command ran, when it opens the line: `cd packages/core && bun test`. */
const LEADING_CD = /^cd \S+ ?&& ?/;

/**
 * The command line that checked the project, as a note shows it, when some part of it checks:
 * the line as it ran (`git add module.nix && nix flake check`: the flake sees only staged
 * files; `go build … && setsid ./server &`: how the server was started), less redirections,
 * what only shortened its output and where it ran; undefined when no part checks.
 */
export function checkOf(command: string): string | undefined {
  // The lines of a script, up to a heredoc: a commit message's lines are no commands.
  const lines: string[] = [];
  for (const line of command.split('\n', 50)) {
    lines.push(line);
    if (line.includes('<<')) break;
  }
  // White space folded first: every pattern below then meets single spaces only.
  const folded = lines.join(' ; ').slice(0, MAX_LINE).replace(/\s+/g, ' ');
  // Redirections next: the `&` of `2>&1` is no background job.
  const plain = folded.replace(/ ?[\d&]?>>? ?(?:&\d|\/dev\/null)/g, '');
  // What runs is read without quoted text: `git commit -m "make test pass"` runs no test.
  const parts = withoutQuotedText(plain).split(/ ?(?:&&|\|\||;|\|(?!\|)|&(?!&)) ?/);
  if (!parts.some((part) => part.trim() && checks(words(part.trim())))) return undefined;
  const shown = plain
    .replace(TRIM_PIPE, '')
    .replace(LEADING_CD, '')
    .replace(/(?: ; )+$/, '')
    .trim();
  return shown.length <= 300 ? shown : `${shown.slice(0, 299)}…`;
}

function words(segment: string): string[] {
  return segment.split(' ').map((w) => w.replace(/^['"]|['"]$/g, ''));
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
  // `npx -y tsc`, `uv run --frozen pytest`: a launcher's own flags come before what it runs.
  const skipFlags = () => {
    while (all[at]?.startsWith('-')) at += 1;
  };
  skip();
  const first = all[at];
  if (first !== undefined && LAUNCHERS.has(first)) {
    at += 1;
    skipFlags();
  } else if (first !== undefined && ENVIRONMENTS.has(first) && /^(?:run|exec)$/.test(all[at + 1] ?? '')) {
    at += 2;
    skipFlags();
  }
  skip();
  const program = (all[at] ?? '').replace(/^.*\//, '');
  // Past `--`, words are the script's own arguments (`npm run dev -- --mode test`).
  const end = all.indexOf('--', at + 1);
  const rest = all.slice(at + 1, end < 0 ? undefined : end);
  if (!program || rest.some((w) => NOT_A_RUN.test(w))) return false;
  const named = rest.filter((w) => !/^[-+]/.test(w));
  if (program === 'node') return rest.includes('--test') || interpreted(rest, named);
  if (program === 'prettier') return rest.some((w) => w === '--check' || w === '-c');
  const subcommand = CHECKING_SUBCOMMANDS[program];
  if (subcommand) return subcommand.test(named[0] ?? '');
  if (CHECKERS.has(program)) return true;
  const goals = CHECKING_GOALS[program];
  if (goals) return named.some((w) => goals.test(w));
  if (program === 'nix') return named[0] === 'build' || (named[0] === 'flake' && named[1] === 'check');
  if (PACKAGE_MANAGERS.has(program) || TASK_RUNNERS.has(program)) {
    const [verb = '', ...after] = named;
    if (RUN_VERBS.has(verb)) return after.some((w) => CHECK_SCRIPT.test(w) || CHECKERS.has(w));
    // `npm ci` installs; `make ci` runs the project's CI target.
    if (verb === 'ci') return TASK_RUNNERS.has(program);
    return CHECK_SCRIPT.test(verb) || CHECKERS.has(verb);
  }
  if (INTERPRETERS.has(program)) return interpreted(rest, named);
  // A script of the project's run by its path: `./scripts/run_tests.sh`.
  return /\//.test(all[at] ?? '') && CHECK_SCRIPT_FILE.test(program);
}

/** An interpreter's run: `python -m pytest`, or a script named for a check or given a check's word. */
function interpreted(rest: string[], named: string[]): boolean {
  const module = rest[0] === '-m' ? rest[1] : undefined;
  if (module !== undefined) return CHECKERS.has(module) || module === 'unittest';
  const script = (named[0] ?? '').replace(/^.*\//, '');
  return CHECK_SCRIPT_FILE.test(script) || named.slice(1).some((w) => CHECK_SCRIPT.test(w));
}
