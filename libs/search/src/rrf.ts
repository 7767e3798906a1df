/**
 * Reciprocal rank fusion (Cormack et al., 2009): merges ranked lists whose scores are not
 * comparable (full-text rank, cosine) using ranks alone. `k` damps the head: with the usual 60,
 * first and tenth place differ by only ~13%, so an id found by two lists beats one found at the
 * top of a single list.
 */

export interface FusedHit<S extends string> {
  id: string;
  score: number;
  /** 1-based rank of the id in each list that holds it. */
  ranks: Partial<Record<S, number>>;
}

/** Each list holds ids best first; an id repeated within a list counts at its best rank. */
export function reciprocalRankFusion<S extends string>(lists: Record<S, string[]>, k = 60): Array<FusedHit<S>> {
  if (!(k >= 0)) throw new RangeError(`k must be a non-negative number, got ${k}`);
  const hits = new Map<string, { ranks: Partial<Record<S, number>>; all: number[] }>();
  for (const name of Object.keys(lists) as S[]) {
    const ids = lists[name];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      let hit = hits.get(id);
      if (hit === undefined) {
        hit = { ranks: {}, all: [] };
        hits.set(id, hit);
      }
      if (hit.ranks[name] !== undefined) continue;
      hit.ranks[name] = i + 1;
      hit.all.push(i + 1);
    }
  }

  const fused: Array<FusedHit<S> & { best: number }> = [];
  for (const [id, { ranks, all }] of hits) {
    // Summed in rank order, so ids with the same ranks in different lists tie exactly.
    all.sort((a, b) => a - b);
    let score = 0;
    for (const rank of all) score += 1 / (k + rank);
    fused.push({ id, score, ranks, best: all[0]! });
  }
  fused.sort((a, b) => b.score - a.score || a.best - b.best || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return fused.map(({ id, score, ranks }) => ({ id, score, ranks }));
}
