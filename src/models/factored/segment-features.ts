/**
 * Segment features (issue 38, h38m): four pair features of a candidate read against its own call's part of a question
 * that calls several functions. The one-call argument scorer sees every span of such a question as a value it could
 * take, and ranks another call's value or a span far from its function's mention above its own; trained also on synth
 * questions that call several functions (factored-train.ts multiCallArguments, the other calls' values its hard
 * negatives), it can learn what its own segment, the other calls' spans and its mention say. Every one is 0 where one
 * function is called, so a model trained with them scores one-call questions by its other weights alone.
 */
import type { Candidate } from "./candidates.ts";
import { PAIR_DIM } from "./features.ts";

/** How many features follow the PAIR_DIM pair features when a segment is known. */
export const SEGMENT_DIM = 4;

/** Tokens from a function's mention over which the distance feature grows from 0 to 1. */
const MENTION_REACH = 20;

export interface SegmentContext {
  /** Token -> the called function that owns it (decide.ts spanOwners); undefined, or -1 everywhere, for no segments. */
  owner?: readonly number[];
  /** This function's index among the called ones. */
  index: number;
  /** The token where this function is mentioned (decide.ts mentionPlaces); -1 for none. */
  mentionAt: number;
  /** Token ranges [start, end) the other called functions take (decoding: their first values; training: gold). */
  taken: readonly (readonly [number, number])[];
}

/**
 * The pair features `x` followed by the segment features of candidate `c`: [0] outside this function's segment, [1]
 * over a span another called function takes, [2] inside the segment but before the mention (a segment starts at
 * its clause), [3] how far from the mention inside the segment (0 beside it, 1 at MENTION_REACH tokens or more).
 * An enum member (no span of its own) gets none.
 */
export function withSegmentFeatures(x: Float32Array, c: Candidate, s: SegmentContext): Float32Array {
  const y = new Float32Array(PAIR_DIM + SEGMENT_DIM);
  y.set(x.subarray(0, PAIR_DIM));
  if (c.start < 0) return y;
  const segments = s.owner !== undefined && s.owner[0] !== -1;
  const inside = !segments || s.owner![c.start] === s.index;
  y[PAIR_DIM] = inside ? 0 : 1;
  y[PAIR_DIM + 1] = s.taken.some(([a, b]) => c.start < b && a < c.end) ? 1 : 0;
  if (segments && inside && s.mentionAt >= 0) {
    y[PAIR_DIM + 2] = c.end <= s.mentionAt ? 1 : 0;
    y[PAIR_DIM + 3] = Math.min(1, Math.abs(c.start - s.mentionAt) / MENTION_REACH);
  }
  return y;
}
