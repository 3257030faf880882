import { mulberry32 } from "./split.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Paired randomisation test on per-query scores (Fisher's sign-flip test, as IR evaluation uses it for NDCG):
 * under "no difference" each query's difference A − B is as likely to have the other sign, so the observed mean
 * difference is compared with `rounds` seeded sign-flipped means. Two-sided; p = (extreme + 1) / (rounds + 1), so
 * it is never 0 and its resolution is 1 / rounds.
 */
export interface PairedRandomization {
  queries: number;
  meanA: number;
  meanB: number;
  /** mean(A) − mean(B). */
  difference: number;
  p: number;
  rounds: number;
}

export function pairedRandomization(
  a: readonly number[],
  b: readonly number[],
  options: { rounds?: number; seed?: number } = {},
): PairedRandomization {
  if (a.length !== b.length)
    throw new ToolgenError(
      "invalid_option",
      `pairedRandomization: ${a.length} scores for A, ${b.length} for B`,
    );
  const rounds = options.rounds ?? 100_000;
  const rand = mulberry32(options.seed ?? 1);
  const n = a.length;
  const diff = a.map((x, i) => x - b[i]);
  const observed = Math.abs(diff.reduce((s, d) => s + d, 0));
  let extreme = 0;
  for (let r = 0; r < rounds; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += rand() < 0.5 ? -diff[i] : diff[i];
    if (Math.abs(s) >= observed - 1e-12) extreme++;
  }
  const mean = (xs: readonly number[]): number => (n === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / n);
  return {
    queries: n,
    meanA: mean(a),
    meanB: mean(b),
    difference: mean(a) - mean(b),
    p: (extreme + 1) / (rounds + 1),
    rounds,
  };
}
