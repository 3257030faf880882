/**
 * Number groups: a question that writes one number for each of a function's required number parameters, again
 * and again ("the first triangle has a base of 15 meters and a height of 20 … the second a base of 25 and a
 * height of 30"; "3 and 4, 5 and 12"), asks one call per group. The question's numbers that some such parameter
 * finds plausible are read in order and cut into groups of as many numbers as there are parameters; the numbers
 * are dealt to the parameters in one order for every group, the order the scorer likes best over all groups, the
 * schema's own order of the parameters counted SCHEMA_ORDER_PRIOR times likelier per group (a question tends to
 * state a function's numbers in the order its author declared them: "coefficients … as 5, 6, and 1"). Only the
 * written order of numbers, the schema's order and the learnt scores are read: no words of any language.
 */
import type { Candidate } from "./candidates.ts";

/** A required number parameter with its candidates and their chances. */
export interface GroupParam {
  name: string;
  candidates: readonly Candidate[];
  probs: readonly number[];
}

/** DecideOptions.numberGroups's default: a number counts when some parameter gives it this share of its best chance. */
export const NUMBER_GROUP_SHARE = 0.05;

/**
 * DecideOptions.numberGroupOrder's default: how much likelier, per group, the schema's order of the parameters is
 * than any other before the scores are read (chosen on BFCL dev: 2, 5 and 20 gave the same figures; 1: no prior).
 */
export const SCHEMA_ORDER_PRIOR = 2;

/** Every order of 0..k-1. */
function permutations(k: number): number[][] {
  if (k === 0) return [[]];
  return permutations(k - 1).flatMap((p) => Array.from({ length: k }, (_, i) => [...p.slice(0, i), k - 1, ...p.slice(i)]));
}

/**
 * One row of values per group, or undefined when the plausible numbers are fewer than two groups or do not
 * divide into groups evenly. `params` in the schema's order; `allowed`: the candidates the function may take (its
 * segment of the question).
 */
export function numberGroupCalls(
  params: readonly GroupParam[],
  allowed: (c: Candidate) => boolean,
  minShare = NUMBER_GROUP_SHARE,
  orderPrior = SCHEMA_ORDER_PRIOR,
): Record<string, unknown>[] | undefined {
  const k = params.length;
  if (k < 2 || k > 5) return undefined;
  // per parameter: its best candidate at each token where a number is written
  const at = params.map((p) => {
    const byStart = new Map<number, { prob: number; value: unknown }>();
    p.candidates.forEach((c, i) => {
      if (c.family !== "number" || c.start < 0 || !allowed(c)) return;
      const prob = p.probs[i] ?? 0;
      const had = byStart.get(c.start);
      if (!had || prob > had.prob) byStart.set(c.start, { prob, value: c.value });
    });
    return byStart;
  });
  const best = at.map((m) => Math.max(0, ...[...m.values()].map((x) => x.prob)));
  const starts = [...new Set(at.flatMap((m) => [...m.keys()]))]
    .filter((s) => at.some((m, j) => best[j]! > 0 && (m.get(s)?.prob ?? 0) >= minShare * best[j]!))
    .sort((a, b) => a - b);
  if (starts.length < 2 * k || starts.length % k !== 0) return undefined;
  const groups = Array.from({ length: starts.length / k }, (_, g) => starts.slice(g * k, g * k + k));
  let order: number[] | undefined;
  let bestScore = -Infinity;
  for (const perm of permutations(k)) {
    // perm[j]: which parameter takes a group's j-th number
    let score = perm.every((pj, j) => pj === j) ? groups.length * Math.log(orderPrior) : 0;
    for (const g of groups)
      for (let j = 0; j < k; j++) score += Math.log((at[perm[j]!]!.get(g[j]!)?.prob ?? 0) + 1e-12);
    if (score > bestScore) [bestScore, order] = [score, perm];
  }
  if (!order) return undefined;
  // every number dealt must be plausible for the parameter it goes to, else the numbers are not such groups
  const plausible = groups.every((g) => order!.every((pj, j) => (at[pj]!.get(g[j]!)?.prob ?? 0) >= minShare * best[pj]!));
  if (!plausible) return undefined;
  return groups.map((g) => Object.fromEntries(order!.map((pj, j) => [params[pj]!.name, at[pj]!.get(g[j]!)?.value])));
}
