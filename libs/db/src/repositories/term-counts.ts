/** Projects (by filter) whose term counts one process keeps, least recently used dropped first. */
const MAX_SCOPES = 64;
/** Terms kept per project and filter: past this the counts start again from the next query's. */
const MAX_TERMS = 2000;

interface Kept {
  count: number;
  /** The term's lexemes, parsed once when it is learnt: `known` reads them for every query. */
  lexemes: string[];
}

interface Counts {
  revision: number;
  byTerm: Map<string, Kept>;
}

/**
 * How many of a project's items hold each query term, as of one memory revision: full-text
 * search weighs a term by it, and counting it again for every query was most of a search's
 * time on a grown project (a prompt's common words, "fix", "error", are held by thousands of
 * items). Every change to items bumps the revision, and the statement that uses these counts
 * checks the revision itself, so a count is never used past a change.
 */
export class TermCounts {
  private readonly scopes = new Map<string, Counts>();

  /**
   * The counts kept for this scope that the query may use, with the revision they hold for
   * (-1 when none). Only terms whose every lexeme is found in the query's text are offered:
   * sending all of them would cost each query more than the counts save. A stem the text does
   * not hold as written ("retri" of "retry") is only counted again.
   */
  known(scope: string, queryText: string): { revision: number; terms: string[]; counts: number[] } {
    const kept = this.scopes.get(scope);
    if (!kept) return { revision: -1, terms: [], counts: [] };
    this.touch(scope, kept);
    const text = queryText.toLowerCase();
    const terms: string[] = [];
    const counts: number[] = [];
    for (const [term, { count, lexemes }] of kept.byTerm) {
      if (lexemes.every((l) => text.includes(l))) {
        terms.push(term);
        counts.push(count);
      }
    }
    return { revision: kept.revision, terms, counts };
  }

  /** What a statement counted (or was given) at `revision`. */
  learn(scope: string, revision: number, terms: readonly string[], counts: readonly number[]): void {
    let kept = this.scopes.get(scope);
    if (!kept || kept.revision !== revision || kept.byTerm.size + terms.length > MAX_TERMS) {
      kept = { revision, byTerm: new Map() };
    }
    this.touch(scope, kept);
    terms.forEach((term, i) => kept.byTerm.set(term, { count: counts[i]!, lexemes: lexemes(term) }));
    if (this.scopes.size > MAX_SCOPES) this.scopes.delete(this.scopes.keys().next().value!);
  }

  /** Moves the scope to the most recently used end, which `learn` drops last. */
  private touch(scope: string, kept: Counts): void {
    this.scopes.delete(scope);
    this.scopes.set(scope, kept);
  }
}

/** The lexemes of a tsquery as PostgreSQL prints it: `'webhook' <-> 'sender'`. */
function lexemes(term: string): string[] {
  return [...term.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replaceAll("''", "'"));
}
