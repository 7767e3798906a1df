export interface DiffPart {
  text: string;
  /** Present in this side only. */
  changed: boolean;
}

const MAX_WORDS = 600;

/**
 * The words of `mine` marked where they are not in the longest common subsequence with
 * `theirs` (compared without case or punctuation): enough to show a person where two near-duplicate items differ. Texts past
 * MAX_WORDS words are compared on their start only (the rest shown unmarked), keeping the
 * table small.
 */
export function wordDiff(mine: string, theirs: string): DiffPart[] {
  const a = mine.split(/(\s+)/);
  const b = theirs.split(/(\s+)/);
  // Words compare without case or punctuation: "Rotate" and "rotate," are the same word.
  const plain = (token: string) => token.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const head = a.slice(0, MAX_WORDS * 2);
  const other = b.slice(0, MAX_WORDS * 2);
  const headKeys = head.map(plain);
  const otherKeys = other.map(plain);
  const n = head.length;
  const m = other.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = headKeys[i] === otherKeys[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (text: string, changed: boolean) => {
    const last = parts[parts.length - 1];
    if (last && last.changed === changed) last.text += text;
    else parts.push({ text, changed });
  };
  let i = 0;
  let j = 0;
  while (i < n) {
    if (j < m && headKeys[i] === otherKeys[j]) {
      push(head[i]!, false);
      i++;
      j++;
    } else if (j < m && lcs[i]![j + 1]! >= lcs[i + 1]![j]!) {
      j++;
    } else {
      // Whitespace alone is never a difference: it joins the run it stands in.
      push(head[i]!, /^\s*$/.test(head[i]!) ? (parts[parts.length - 1]?.changed ?? false) : true);
      i++;
    }
  }
  if (a.length > head.length) push(a.slice(head.length).join(''), false);
  return parts;
}
