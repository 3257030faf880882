/**
 * List runs: a value joined to a taken one is a further value, whatever the learnt "more" model says, when it
 * makes a run of three or more values written alike and joined only by commas and joiner words ("New York, Los
 * Angeles, London and Tokyo"): the taken value it joins is itself joined to another taken value, or it is joined
 * on its other side to a third candidate of the parameter. People write a list of three that way; two values
 * joined by a comma can be one value in two parts ("Boston, MA"), three in a row seldom are. A list's commas come
 * before its last joiner word, so a value joined by a comma alone only ever extends a run leftwards ("Tokyo, if
 * I want" is no item). Reads only punctuation and the joiner words learnt from training questions.
 */
import type { Candidate } from "./candidates.ts";

/** How `a` is joined to `b` written right after it: by commas alone, by a joiner word, or not at all. */
export type Link = "comma" | "word" | undefined;

export interface RunContext {
  /** How `a` is joined to `b` when `b` is written right after `a` (only commas and joiner words between). */
  link: (a: Candidate, b: Candidate) => Link;
  /** Other candidates of the parameter that could still be taken, written as the first value is. */
  rivals: readonly Candidate[];
}

/** Is `b` a list neighbour of `a`: written before it, or after it past a joiner word? */
function neighbours(ctx: RunContext, a: Candidate, b: Candidate): boolean {
  return ctx.link(b, a) !== undefined || ctx.link(a, b) === "word";
}

/** Does `c`, joined to one of the values taken, make a run of three or more joined values with them or a rival? */
export function extendsRun(taken: readonly Candidate[], c: Candidate, ctx: RunContext): boolean {
  const anchors = taken.filter((v) => neighbours(ctx, v, c));
  if (anchors.length === 0) return false;
  // the taken value it joins is joined to another taken value: the run is already two long
  if (anchors.some((v) => taken.some((w) => w !== v && (ctx.link(v, w) !== undefined || ctx.link(w, v) !== undefined)))) return true;
  // a third value joined to c on its other side (c in the middle)
  return ctx.rivals.some((d) => d !== c && neighbours(ctx, c, d) && !anchors.some((v) => neighbours(ctx, v, d)));
}
