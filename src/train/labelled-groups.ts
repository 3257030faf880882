/**
 * One argument-scorer group of a labelled multi-call question (pseudo-labels.ts, written-groups.ts): the gold
 * candidates (none: "leave it out" is the gold), every wrong candidate over another call's values (what such a
 * question makes the scorer choose between), up to `negatives` other wrong ones drawn at random, and "leave it out".
 */
import { blockOf, NULL_BLOCK } from "../models/factored/decide.ts";
import type { Candidate } from "../models/factored/candidates.ts";
import {
  nullFeatures,
  pairFeatures,
  type FunctionView,
  type ParamInfo,
} from "../models/factored/features.ts";
import type { SoftmaxGroup } from "../models/factored/linear.ts";
import type { Rng } from "../nn/rng.ts";

/** A candidate's token ranges: a list's items, or its one span (none for enum and bool members). */
export const candidateRanges = (c: Candidate): [number, number][] =>
  c.items ?? (c.start >= 0 ? [[c.start, c.end]] : []);

export const overlapsAny = (c: Candidate, spans: readonly [number, number][]): boolean =>
  candidateRanges(c).some(([a, b]) => spans.some(([x, y]) => a < y && x < b));

export interface LabelledGroupOptions {
  negatives: number;
  rng: Rng;
  /** Pair features zeroed (FactoredTrainOptions.dropPairFeatures). */
  drop?: readonly number[];
  /** Keep the candidates over another call's values as wrong ones (default true). */
  otherValues?: boolean;
}

/**
 * The group of parameter `p`: `gold` and `rest` index p.candidates (rest: the wrong ones it may keep), `others` the
 * token ranges of the other calls' values.
 */
export function labelledGroup(
  f: FunctionView,
  p: ParamInfo,
  gold: readonly number[],
  rest: readonly number[],
  others: readonly [number, number][],
  o: LabelledGroupOptions,
): SoftmaxGroup {
  const hard = rest.filter((k) => overlapsAny(p.candidates[k]!, others));
  const easy = rest.filter((k) => !overlapsAny(p.candidates[k]!, others));
  for (let k = easy.length - 1; k > 0; k--) {
    const r = o.rng.int(k + 1);
    [easy[k], easy[r]] = [easy[r]!, easy[k]!];
  }
  const kept = [...gold, ...(o.otherValues === false ? [] : hard), ...easy.slice(0, o.negatives)];
  const items = kept.map((k) => {
    const c = p.candidates[k]!;
    const x = pairFeatures(f, p, c);
    for (const d of o.drop ?? []) x[d] = 0;
    return { block: blockOf(c), x };
  });
  items.push({ block: NULL_BLOCK, x: nullFeatures(f, p) });
  return { items, gold: gold.length === 0 ? [items.length - 1] : gold.map((_, k) => k) };
}
