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

export function significantWords(text: string): string[] {
  return (
    (text.toLowerCase().match(/[a-z0-9]+(?:[._-][a-z0-9]+)*/g) ?? [])
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

/** The word an item is about: the first significant word that is not an action. */
export function topicWord(words: readonly string[]): string | undefined {
  return words.find((w) => !ACTION_WORDS.has(w));
}

/** Lowercase words joined by hyphens, as dedup hints and tags want them. */
export function slug(words: string[], max = 5): string {
  const out = words
    .slice(0, max)
    .join('-')
    .replace(/[^a-z0-9-]+/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return out.slice(0, 60).replace(/-$/, '') || 'general';
}

/** The first sentence (or line) of a text, trimmed to `max` characters at a word boundary. */
export function firstSentence(text: string, max = 120): string {
  const line = normalizeWhitespace(text.split('\n').find((l) => l.trim().length > 0) ?? '');
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(line)?.[1] ?? line;
  return truncateWords(sentence, max);
}

export function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

const PATH_IN_TEXT = /(?:^|[\s`'"(])((?:[\w.@-]+\/)+[\w.@-]+\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),.:;])/g;

/** File paths a text names (`src/cart/total.ts`), each once, in order. */
export function pathsIn(text: string): string[] {
  return [...new Set([...text.matchAll(PATH_IN_TEXT)].map((m) => m[1]!))];
}

/** Title form: no trailing period, first letter upper case. */
export function asTitle(text: string, max = 120): string {
  const t = truncateWords(normalizeWhitespace(text).replace(/[.\s]+$/, ''), max);
  return t.charAt(0).toUpperCase() + t.slice(1);
}
