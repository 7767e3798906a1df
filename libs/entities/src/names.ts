/**
 * The names extraction recognises in free text: relative file paths, code identifiers and
 * packages. Each rule lives here once, so the enrichment worker and a query's signals agree.
 */

const MAX_NAME = 200;
/** Extensions a path must end in to count as a file (not `e.g`, `v1.2`, `a/b`). */
const PATH =
  /(?:^|[\s`'"(=:,[])((?:\.{1,2}\/)?(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s`'"),:;.?!\]])/g;
const NOT_A_FILE_EXT = /\.(?:com|org|net|io|dev|app|md5|sha\d*|e|g|i|x|etc|js\.org)$/i;
const KNOWN_EXT =
  /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|rb|java|kt|kts|swift|c|cc|cpp|h|hpp|cs|php|scala|sh|bash|zsh|sql|prisma|graphql|gql|proto|json|jsonc|ya?ml|toml|ini|cfg|conf|env|lock|md|mdx|txt|html?|css|scss|less|vue|svelte|astro|dockerfile|xml|gradle|tf|lua|ex|exs|erl|hs|ml|dart|r|ipynb|csv|mod|sum)$/i;

/** Relative paths only: an absolute path names another machine's layout, and often its user. */
export function isProjectPath(path: string): boolean {
  if (path.length > MAX_NAME || path.startsWith('/') || path.startsWith('~') || path.includes('://')) return false;
  if (path.includes('[') || path.includes('<')) return false; // a redaction placeholder or template
  return true;
}

/** `./src/a.ts` and `src/a.ts` are one file. */
export function normalisePath(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/{2,}/g, '/');
}

export function pathsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATH)) {
    const path = match[1]!;
    if (!KNOWN_EXT.test(path) || NOT_A_FILE_EXT.test(path) || !isProjectPath(path)) continue;
    // A bare `name.ext` must be a file-like name, not a sentence's `end.Next`.
    if (!path.includes('/') && !/^[\w.@+-]+\.[a-z0-9]+$/.test(path)) continue;
    found.add(normalisePath(path));
  }
  return [...found];
}

const DECLARATION =
  /\b(?:function\*?|class|interface|type|enum|const|let|var|def|async\s+def|func|struct|trait|fn|module|record)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]{2,80})/g;
/** Mixed-case or snake_case with a capital or underscore inside: code, not prose. */
const IDENTIFIER =
  /(?<![\w$./-])((?:[a-z_$][\w$]*[A-Z_][\w$]*|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+))(?:\(\))?(?![\w$/-])/g;
const BACKTICKED = /`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`/g;
const COMMON = new Set(['JavaScript', 'TypeScript', 'GitHub', 'PostgreSQL', 'MacOS', 'OpenAI', 'YouTube', 'LinkedIn']);

/** Symbols a piece of code declares: `function foo`, `class Bar`, `def baz`. */
export function declaredSymbols(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(DECLARATION)) found.add(match[1]!);
  return [...found];
}

/** Identifiers prose names: in backticks, or shaped like code (camelCase, PascalCase, snake_case). */
export function namedSymbols(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(BACKTICKED)) {
    const name = match[1]!;
    if (name.length >= 3 && /[A-Z_]|\./.test(name.slice(1))) found.add(name);
  }
  for (const match of text.matchAll(IDENTIFIER)) {
    const name = match[1]!;
    if (name.length >= 4 && name.length <= 80 && !COMMON.has(name)) found.add(name);
  }
  return [...found];
}

const INSTALL =
  /\b(?:npm\s+(?:i|install|add)|pnpm\s+(?:add|install|i)|yarn\s+add|bun\s+add|pip3?\s+install|uv\s+(?:add|pip\s+install)|poetry\s+add|cargo\s+add|go\s+get|gem\s+install|composer\s+require)\s+([^;&|\n]+)/g;

/**
 * A shell command with its quoted text blanked: words in quotes are text (a commit message
 * saying "use npm install instead of npm ci", "fix parser && make test pass"), not a command
 * run. A quoted single word ("requests>=2", '@x/core') is still an argument and stays.
 */
export function withoutQuotedText(command: string): string {
  return command.replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, (quoted) => (/\s/.test(quoted) ? ' ' : quoted));
}

/** Package names an install command adds, versions dropped: `npm i -D zod@4` names `zod`. */
export function installedPackages(command: string): string[] {
  const found = new Set<string>();
  for (const match of withoutQuotedText(command).matchAll(INSTALL)) {
    for (const word of match[1]!.trim().split(/\s+/)) {
      if (word.startsWith('-') || word.startsWith('.') || word.startsWith('/')) continue;
      const name = packageName(word);
      if (name) found.add(name);
    }
  }
  return [...found];
}

/** `@scope/name@1.2`, `name==1.0`, `name>=2`, `github.com/a/b@v1` to the bare name, lower case. */
export function packageName(spec: string): string | undefined {
  const clean = spec.replace(/^['"]|['"]$/g, '');
  const scoped = clean.startsWith('@');
  const bare = (scoped ? `@${clean.slice(1).split('@')[0]}` : clean.split('@')[0])!.split(/[=<>~![;]/)[0]!;
  if (!/^@?[a-z0-9][\w.-]*(?:\/[\w.-]+)*$/i.test(bare) || bare.length > 120) return undefined;
  return bare.toLowerCase();
}

// Line patterns keep to one line (`[ \t]`, not `\s`): with the m flag, a `\s*` at a line's start
// runs over every blank line after it, from every line, and a file of blank lines took seconds.
const MANIFEST_DEPS: Array<{ file: RegExp; line: RegExp }> = [
  // package.json: "name": "^1.2.3" (any quoted version-ish value)
  {
    file: /(?:^|\/)package\.json$/,
    line: /"(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)?)"\s*:\s*"(?:[\^~<>=]*\d|workspace:|npm:|latest|\*)/gi,
  },
  // requirements.txt: name==1.0 / name>=1 / name
  { file: /(?:^|\/)requirements[\w.-]*\.txt$/, line: /^[ \t]*([A-Za-z][\w.-]*)[ \t]*(?:[=<>~!]=?|$)/gm },
  // pyproject.toml: "name>=1.0" in a dependency list
  { file: /(?:^|\/)pyproject\.toml$/, line: /"([A-Za-z][\w.-]*)\s*(?:[=<>~!]=|\[|")/g },
  // Cargo.toml: name = "1.0" / name = { version = … }
  { file: /(?:^|\/)Cargo\.toml$/, line: /^[ \t]*([a-z][\w-]*)[ \t]*=[ \t]*(?:"\d|\{)/gm },
  // go.mod: module/path v1.2.3
  { file: /(?:^|\/)go\.mod$/, line: /^[ \t]*(?:require[ \t]+)?([a-z0-9.-]+\.[a-z]+\/[\w./-]+)[ \t]+v\d/gm },
];

/** Packages a manifest's new text declares, when the path is a manifest Memex knows. */
export function manifestPackages(path: string, text: string): string[] {
  const manifest = MANIFEST_DEPS.find((m) => m.file.test(path));
  if (!manifest) return [];
  const found = new Set<string>();
  for (const match of text.matchAll(manifest.line)) {
    const name = packageName(match[1]!);
    if (name && !['name', 'version', 'description', 'main', 'module', 'private', 'license'].includes(name))
      found.add(name);
  }
  return [...found];
}
