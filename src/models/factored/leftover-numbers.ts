/**
 * A number the question writes in digits is there to be a value: when the joint assignment leaves such a number
 * unspent and an optional number parameter empty ("restaurants within 10 miles" for max_distance, which the scorer
 * leaves out at 0.89 since most optional parameters are), that parameter takes it. Of several such parameters the
 * one likeliest to take its number goes first; each takes its own likeliest free number. Reads the schema's types
 * and the question's digits only (DecideOptions.leftoverNumbers, false for the ablation).
 */
import type { Candidate } from "./candidates.ts";

export interface LeftoverParam {
  optional: boolean;
  /** integer or number, no enum */
  numeric: boolean;
  candidates: readonly Candidate[];
  probs: readonly number[];
  pNull: number;
}

/**
 * For each empty optional number parameter, the index of the number candidate it takes (-1: none), given which
 * candidates are free (`free`) and spending each one taken (`take`). `minRatio`: its chance over the chance of
 * leaving the parameter out must reach this.
 */
export function leftoverNumbers(
  params: readonly LeftoverParam[],
  free: (c: Candidate) => boolean,
  take: (c: Candidate) => void,
  minRatio: number,
): number[] {
  const out = params.map(() => -1);
  const best = (p: LeftoverParam): number => {
    let at = -1;
    p.candidates.forEach((c, i) => {
      if (c.family !== "number" || c.start < 0 || !free(c)) return;
      if (at < 0 || p.probs[i]! > p.probs[at]!) at = i;
    });
    return at;
  };
  const open = new Set(params.map((p, i) => (p.optional && p.numeric ? i : -1)).filter((i) => i >= 0));
  while (open.size > 0) {
    let pick = -1;
    let pickAt = -1;
    for (const i of open) {
      const at = best(params[i]!);
      if (at < 0 || params[i]!.probs[at]! < minRatio * params[i]!.pNull) continue;
      if (pick < 0 || params[i]!.probs[at]! > params[pick]!.probs[pickAt]!) [pick, pickAt] = [i, at];
    }
    if (pick < 0) break;
    open.delete(pick);
    out[pick] = pickAt;
    take(params[pick]!.candidates[pickAt]!);
  }
  return out;
}
