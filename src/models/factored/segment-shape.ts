/**
 * Where the segments of several called functions lie (spanOwners in decide.ts), two refinements read from the
 * question's written form alone:
 * - clusteredPlace: a function whose own name words are several is mentioned where most of them stand together,
 *   not at the first of them alone ("the capital city of Australia … the largest city in Brazil": largest_city is
 *   mentioned at "largest city", not at the "city" of "capital city");
 * - clauseStarts: a function mentioned after another starts its segment just after the last clause break between
 *   the two mentions (a punctuation mark or a learnt joiner word), so that a value said before its function's name
 *   in the same clause is that function's ("… for the last 5 rounds and also the scores for the Los Angeles Lakers
 *   basketball team": the Lakers are the basketball function's).
 */
import type { QToken } from "./text.ts";

/** How far either side of a name word its other own words count as standing together with it. */
export const CLUSTER_WIDTH = 2;

/** A punctuation mark that ends a clause or a list item (no quote mark, bracket or symbol). */
const BREAK = /^[,.;:?!]$/;

/**
 * The first token whose stem is one of `own` with the most distinct `own` stems within CLUSTER_WIDTH tokens of it
 * (-1: none written).
 */
export function clusteredPlace(tokens: readonly QToken[], own: ReadonlySet<string>): number {
  let best = -1;
  let bestCount = 0;
  tokens.forEach((t, k) => {
    if (!own.has(t.stem)) return;
    const near = new Set(
      tokens.slice(Math.max(0, k - CLUSTER_WIDTH), k + CLUSTER_WIDTH + 1).flatMap((u) => (own.has(u.stem) ? [u.stem] : [])),
    );
    if (near.size > bestCount) [best, bestCount] = [k, near.size];
  });
  return best;
}

/**
 * Each function's segment start from its mention place (`places`, all >= 0): the first mentioned keeps its place;
 * each later one starts just after the last clause break after the mention before it, or at its own mention when
 * there is none between.
 */
export function clauseStarts(tokens: readonly QToken[], joiners: ReadonlySet<string>, places: readonly number[]): number[] {
  const order = places.map((at, i) => ({ at, i })).sort((a, b) => a.at - b.at);
  const starts = [...places];
  const isBreak = (t: QToken) => (t.kind === "punct" && BREAK.test(t.text)) || (t.kind === "word" && joiners.has(t.lower));
  for (let j = 1; j < order.length; j++) {
    const prev = order[j - 1]!.at;
    let k = order[j]!.at - 1;
    while (k > prev && !isBreak(tokens[k]!)) k--;
    if (k > prev) starts[order[j]!.i] = k + 1;
  }
  return starts;
}

