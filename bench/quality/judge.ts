/** One fact a teammate must know after a session, as the team labelled it (bench/quality/labels). */
export interface LabelledFact {
  id: string;
  type: string;
  statement: string;
  /** Case-insensitive; a memory states the fact when every one of them matches its text. */
  patterns: string[];
  evidence: string;
  importance: number;
}

export interface SessionLabels {
  transcript: string;
  /** When the session was labelled: absent for the first eleven, `issue-25` for those labelled after the engine was tuned. */
  cohort?: string;
  session: string;
  facts: LabelledFact[];
}

export function states(fact: LabelledFact, text: string): boolean {
  return fact.patterns.every((p) => new RegExp(p, 'i').test(text));
}

/** What a memory item says, as matched against the labels. */
export function itemText(item: { title: string; facts: string; rationale: string | null; files: string[] }): string {
  return [item.title, item.facts, item.rationale ?? '', item.files.join(' ')].join('\n');
}

/**
 * The brain's item lines as the assistant reads them, with the brain's markdown escapes
 * undone so the labels' patterns see the words.
 */
export function brainLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) =>
      l
        .replace(/\\([\\`*_[\]#~=+\-|.)])/g, '$1')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>'),
    );
}

/**
 * The bench's own reading of a junk title, kept apart from the engine's filter on purpose: a
 * judge that shared the engine's rule could only ever agree with it. Shell output, logs and
 * stacks, meters, harness markers, heredocs and code read as symbols, not words.
 */
export function looksLikeJunk(title: string): boolean {
  const t = title.replace(/^[A-Za-z]+:\s*/, '');
  // A quoted identifier (`renderToken()`) belongs in a note; only what stands outside quotes counts.
  const prose = t.replace(/`[^`]*`/g, 'code');
  if (/\$\(|<<\s*'?EOF|\[Request interrupted|% Total|Xferd|^>\s*\S+@|^\(eval\)|^\s*at\s+\S+\s*\(/.test(t)) return true;
  // Words of any script: a title in Korean is prose, not symbols.
  const words = (prose.match(/\p{L}{2,}/gu) ?? []).length;
  const symbols = (prose.match(/[^\p{L}\p{N}\s,.'’"-]/gu) ?? []).length;
  return words < 2 || symbols > words;
}
