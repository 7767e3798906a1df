/**
 * A query in web-search syntax (what websearch_to_tsquery reads: words, "quoted phrases", OR,
 * -excluded), split for the two sources: full text reads the query whole; vectors are given
 * only the words sought, and what is excluded is applied to every result as a filter, so an
 * excluded word never comes back through its vector similarity.
 */
export interface WebQuery {
  /** The sought words and phrases, without quotes or OR: what the query is about. */
  sought: string;
  /** The sought words outside quotes. */
  words: string;
  /** The sought "quoted phrases", each as written inside its quotes. */
  phrases: string[];
  /** The excluded words and phrases as a query of alternatives ("a" or "b c"), or '' for none. */
  excluded: string;
}

// A term: a quoted phrase (closed or running to the end) or a run of non-space characters.
// websearch_to_tsquery skips these operator characters before a term, so "(-redis" and
// "!-redis" exclude redis as "-redis" does. A question quotes an error message in single or
// curly quotes as often as in double ones ("fails with 'fatal: unable to read'"): such a span,
// closed before a space, a punctuation mark or the end, is a phrase too. An apostrophe inside
// a word ("git's", "won't") opens none, as a term never starts with one.
const TERM =
  /[!&|()<]*(-?)(?:"([^"]*)"?|'([^'\n]*[^\s'])'(?=[\s.,;:!?)]|$)|\u2018([^\u2019\n]+)\u2019|\u201c([^\u201d\n]+)\u201d?|([^\s"]+))/g;

export function splitWebQuery(query: string): WebQuery {
  const sought: string[] = [];
  const words: string[] = [];
  const phrases: string[] = [];
  const excluded: string[] = [];
  for (const match of query.matchAll(TERM)) {
    const [, minus, double, single, curly, curlyDouble, word] = match;
    const phrase = double ?? single ?? curly ?? curlyDouble;
    const text = (phrase ?? word ?? '').trim();
    if (!text) continue;
    // websearch_to_tsquery reads a leading "-" as NOT only at the start of a term.
    if (minus) excluded.push(phrase === undefined ? text : `"${text}"`);
    else if (phrase !== undefined) {
      sought.push(text);
      phrases.push(text);
    } else if (text.toLowerCase() !== 'or') {
      sought.push(text);
      words.push(text);
    }
  }
  return { sought: sought.join(' '), words: words.join(' '), phrases, excluded: excluded.join(' or ') };
}
