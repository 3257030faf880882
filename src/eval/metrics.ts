/**
 * Ranking metrics with binary relevance. `ranked` is the retrieved list (best first), `relevant` the ground truth.
 * All return fractions in [0, 1]; the reports turn them into percent.
 */

const discount = (rank: number): number => 1 / Math.log2(rank + 2);

function dcg(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let sum = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if (relevant.has(ranked[i])) sum += discount(i);
  return sum;
}

function idealDcg(count: number, k: number): number {
  let sum = 0;
  for (let i = 0; i < Math.min(k, count); i++) sum += discount(i);
  return sum;
}

/** Standard NDCG@k: the ideal ranks all relevant items first, retrieved or not. */
export function ndcgAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const set = new Set(relevant);
  const ideal = idealDcg(set.size, k);
  return ideal === 0 ? 0 : dcg(ranked, set, k) / ideal;
}

/**
 * ToolGen's NDCG@k (its eval code: sklearn `ndcg_score` with relevance marked only on retrieved items): the ideal
 * is built from the relevant items *within the retrieved list*, so relevant tools that were never retrieved do
 * not lower it. No relevant item retrieved → 0.
 */
export function ndcgToolGenAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const set = new Set(relevant);
  const retrievedRelevant = new Set(ranked.filter((id) => set.has(id))).size;
  const ideal = idealDcg(retrievedRelevant, k);
  return ideal === 0 ? 0 : dcg(ranked, set, k) / ideal;
}

/** Recall@k: the share of relevant items found in the top k. */
export function recallAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const set = new Set(relevant);
  if (set.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((id) => set.has(id))).size;
  return found / set.size;
}

/** Reciprocal rank of the first relevant item in the list (0 when none). */
export function reciprocalRank(ranked: readonly string[], relevant: Iterable<string>): number {
  const set = new Set(relevant);
  const i = ranked.findIndex((id) => set.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** The q-quantile (0…1) by nearest rank on a sorted copy; 0 for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
