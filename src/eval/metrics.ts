/**
 * Ranking metrics with binary relevance. `ranked` is the retrieved list (best first), `relevant` the ground truth.
 * All return fractions in [0, 1]; the reports turn them into percent.
 *
 * An id the list holds twice is counted once, at its first rank: the repeat keeps its slot (the retriever spent
 * it) but gains nothing, so a buggy retriever cannot lift NDCG above 1. `duplicateCount` reports such repeats as
 * a retriever defect. A query with no relevant id has no meaningful score (these functions return 0 for it);
 * the reports leave such queries out of their means and count them (retrieval.ts).
 */

const discount = (rank: number): number => 1 / Math.log2(rank + 2);

/** The list with each repeat of an earlier id replaced by a hole that matches nothing (ranks are kept). */
function firstOccurrences(ranked: readonly string[]): (string | undefined)[] {
  const seen = new Set<string>();
  return ranked.map((id) => {
    if (seen.has(id)) return undefined;
    seen.add(id);
    return id;
  });
}

/** How many entries of a ranked list repeat an id found earlier in it (0 for a well-formed list). */
export function duplicateCount(ranked: readonly string[]): number {
  return ranked.length - new Set(ranked).size;
}

function dcg(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const list = firstOccurrences(ranked);
  let sum = 0;
  for (let i = 0; i < Math.min(k, list.length); i++) {
    const id = list[i];
    if (id !== undefined && relevant.has(id)) sum += discount(i);
  }
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
