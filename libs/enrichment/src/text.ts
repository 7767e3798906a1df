/** Collapses every run of whitespace to one space: quotes are compared on this form. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could do does for from had has have i if in into is it its ' +
    "let let's lets me my no not of on or our please should so that the their then there these this " +
    'those to too us was we were what when where which while will with would you your always never ' +
    'use using used instead over decided decide chose todo fixme must also just now some any all'
  ).split(' '),
);

/** Words in any script: a Korean or Japanese session has words too, and they must count. */
export function significantWords(text: string): string[] {
  return (
    (text.toLowerCase().match(/[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)*/gu) ?? [])
      .map((w) => w.replace(/[._]/g, '-'))
      // Numbers (12, 12-0, 1-2-3) change from one mention to the next; they must not split a hint.
      .filter((w) => w.length > 1 && !STOPWORDS.has(w) && !/^\d+(?:-\d+)*$/.test(w))
  );
}

/** Words that say what was done rather than what it was about: never a hint's topic. */
const ACTION_WORDS = new Set(
  (
    'add added adding fix fixed fixes fixing update updated make create remove removed implement implemented ' +
    'change changed move moved refactor refactored write wrote support handle handled root cause caused bug ' +
    'issue problem error fail failed failing need needs keep switch go stick wrap run call open'
  ).split(' '),
);

/**
 * Words a sentence leads with that name nothing it is about (a reply, a hedge, a count, a step of
 * the telling): never a hint's topic. As topics they grouped unrelated notes ("yes …", "still …",
 * "new …"), and the brain shows one item per category and topic.
 */
const FILLER_WORDS = new Set(
  (
    'yes yep yeah oh ok okay hmm hey wait well so still already here there then something anything ' +
    'one two three more most new first next last same other think thought found ran running remaining ' +
    'confirmed given known following fits alone short answer fact note re step step-by-step identified ' +
    'investigate closest really actually maybe probably likely done good great perfect else'
  ).split(' '),
);

/** The word an item is about: the first significant word that is neither an action nor filler. */
export function topicWord(words: readonly string[]): string | undefined {
  return words.find((w) => !ACTION_WORDS.has(w) && !FILLER_WORDS.has(w));
}

/**
 * Programs that run other things and their generic subcommands: `npm run build` is about
 * `build`, `git read-tree` about `read-tree`. As a topic, `npm-run` grouped every note that
 * quotes a script.
 */
const RUNNER_WORDS = new Set(
  (
    'npm npx pnpm pnpx yarn bun bunx uv uvx pip pipx poetry python python3 node deno cargo go make ' +
    'docker podman compose kubectl git gh sudo env exec run x tool'
  ).split(' '),
);

/** Where a text says what it is about: its opening, before the details. */
const SUBJECT_CHARS = 40;

/**
 * The code name a text is about, when its opening names one in backticks: an identifier whole
 * (`` `kern.tty.ptmx_max` ``), a command by what it runs (`` `npm run build` `` is `build`). A
 * command quoted later ("… verified with `npm test`") is a detail, not the subject.
 */
export function codeTopic(text: string): string | undefined {
  for (const m of text.matchAll(/`([^`\n]{2,80})`/g)) {
    if ((m.index ?? 0) > SUBJECT_CHARS) break;
    const topic = significantWords(m[1]!).find(
      (w) => !RUNNER_WORDS.has(w) && !ACTION_WORDS.has(w) && !FILLER_WORDS.has(w),
    );
    if (topic) return topic;
  }
  return undefined;
}

/** A short stable name for a word outside a-z0-9 (FNV-1a), since hints and tags are ASCII. */
function asciiWord(word: string): string {
  if (!/[^\p{ASCII}]/u.test(word) || !/\p{L}/u.test(word)) return word;
  let hash = 0x811c9dc5;
  for (const ch of word) hash = Math.imul(hash ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return `u${hash.toString(36)}`;
}

/** Text as a code span of a note: in backticks, with any backtick of its own made a quote. */
export function inCode(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** Lowercase words joined by hyphens, as dedup hints and tags want them. */
export function slug(words: string[], max = 5): string {
  const out = words
    .slice(0, max)
    .map(asciiWord)
    .join('-')
    .replace(/[^a-z0-9-]+/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return out.slice(0, 60).replace(/-$/, '') || 'general';
}

/** The first sentence (or line) of a text; a sentence longer than `max` gives its leading clause. */
export function firstSentence(text: string, max = 120): string {
  const line = normalizeWhitespace(text.split('\n').find((l) => l.trim().length > 0) ?? '');
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(line)?.[1] ?? line;
  return leadingClause(sentence, max);
}

/** Where a sentence's clauses meet: what stands before one of these says something whole. */
const CLAUSE_BREAK =
  /(?:[:;,]|\s[—–]|\s-)\s|\s(?=\()|\s(?=(?:because|since|so that|so|which|when|while|after|before|by|to avoid|to prevent|instead of|rather than|but|and then|unless|until|via|using|with)\s)/g;

/**
 * A sentence that fits, whole; a longer one, as its leading clause: up to the last place its
 * clauses meet within `max`, never cut mid-clause and never with an ellipsis, so a title reads
 * as a whole statement ("Fixed PostHog telemetry blocking CLI exit"), and the note states the
 * sentence in full beside it. A sentence with no such place is cut at a word, marked "…".
 */
export function leadingClause(sentence: string, max: number): string {
  const text = normalizeWhitespace(sentence);
  if (text.length <= max) return text;
  const asides = parenthesised(text);
  // A break inside a code span (`WHERE status = (…)`) would leave the span open, and one inside
  // an aside its parenthesis: "at a safe point (e.g., after condensation)" is not cut at "e.g.".
  // When an aside holds every break, one inside it still beats a cut mid-phrase.
  let best = -1;
  let bestInAside = -1;
  let ticks = 0;
  let seen = 0;
  for (const m of text.slice(0, max + 1).matchAll(CLAUSE_BREAK)) {
    for (; seen < m.index; seen += 1) if (text[seen] === '`') ticks += 1;
    if (m.index < 24 || ticks % 2 === 1) continue;
    if (asides.some(([open, close]) => open < m.index && m.index < close)) bestInAside = m.index;
    else best = m.index;
  }
  const at = best > 0 ? best : bestInAside;
  return at > 0 ? text.slice(0, at).replace(/[\s,;:—–-]+$/, '') : truncateWords(text, max);
}

/**
 * Where a text's parentheses open and close, outside code spans: only pairs that close count,
 * so a lone "(" does not hold every later break, and smileys and enumerators are no parentheses.
 */
function parenthesised(text: string): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const open: number[] = [];
  let inCode = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '`') inCode = !inCode;
    else if (inCode || NOT_A_PARENTHESIS.test(text.slice(Math.max(0, i - 3), i + 1))) continue;
    else if (ch === '(') open.push(i);
    else if (ch === ')' && open.length > 0) pairs.push([open.pop()!, i]);
  }
  return pairs;
}

/** A smiley (`:(`, `;-)`) or an enumerator (`1)`, `b)`) ending here: no parenthesis of an aside. */
const NOT_A_PARENTHESIS = /(?:[:;]-?[()]|(?:^|\s)(?:\d{1,2}|[a-z])\))$/;

export function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/**
 * A code span (any run of backticks, closed by the same run), or a markdown link to a file of
 * the project, as Claude Code in an editor writes them
 * (`[tool_sensor.go:11](go/cmd/mcp-server/tool_sensor.go#L11)`): not an image, not code such as
 * `handlers[type](event)` (a word before the bracket), not a URL (`https:`, but `flake.nix:68`
 * is a file and its line), not an anchor. Bounded, so a run of brackets costs nothing.
 */
const CODE_OR_LOCAL_LINK =
  /(`+)[^`]*?\1|(?<![\w\])!])\[([^[\]\n]{1,200})\]\((?![a-z][a-z0-9+.-]*:(?!\d)|#)([^()#\n"]{1,300}?)(?:#[^()\n]{0,100})?(?:\s+"[^"\n]{0,200}")?\)/gi;

/** A file's line or lines, after its path: `flake.nix:68`, `x.go:11-14`. */
const LINE_SUFFIX = /:\d+(?:-\d+)?$/;

function pathOf(label: string, target: string): string {
  let path = target.trim();
  try {
    path = decodeURI(path);
  } catch {
    // A malformed escape is kept as written.
  }
  // "[.github/workflows/deploy.yml](. github/workflows/deploy.yml#L63)": a target broken by a space
  // the label does not have; the label is the path then.
  if (/\s/.test(path) && !/\s/.test(label) && /[./]/.test(label)) path = label;
  return path.replace(LINE_SUFFIX, '').replace(/^\.\//, '');
}

/**
 * Links to the project's files read as the paths they point at, in code: the path is the name
 * the code knows, the link's label a shorthand, the line a place that moves. Code spans are left
 * as written; a link to the web stays a link.
 */
export function localLinksAsPaths(text: string): string {
  if (!text.includes('](')) return text;
  return text.replace(CODE_OR_LOCAL_LINK, (whole, fence: string | undefined, label: string, target: string) =>
    fence ? whole : `\`${pathOf(label, target)}\``,
  );
}

const PATH_IN_TEXT = /(?:^|[\s`'"(])((?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),.:;])/g;

/** File paths a text names (`src/cart/total.ts`), each once, in order. */
export function pathsIn(text: string): string[] {
  return [...new Set([...text.matchAll(PATH_IN_TEXT)].map((m) => m[1]!))];
}

/** Title form: no trailing period, first letter upper case, a long one as its leading clause. */
export function asTitle(text: string, max = 120): string {
  const t = leadingClause(normalizeWhitespace(text).replace(/[.\s]+$/, ''), max);
  return t.charAt(0).toUpperCase() + t.slice(1);
}
