/**
 * The part of the question a called function's features read. The argument scorer learns on one-call questions,
 * where the whole question is the call's; in a question of several calls its whole-question features (where a
 * value sits among the question's words and numbers, the nearest word of a parameter's name or description) mix
 * other calls' parts in. Decoding gives each called function its segment (decide.ts spanOwners) as its frame, and
 * a value inside it is read against the frame alone, as training read a one-call question.
 */
import type { Candidate } from "./candidates.ts";

/** Tokens of the question a function's features read: true inside its segment. */
export type Frame = readonly boolean[];

/** The frame of called function `i` from decoding's owner of each token. */
export const frameOf = (owner: readonly number[], i: number): Frame => owner.map((o) => o === i);

/** The frame where a candidate lies wholly inside it, else none (it is read against the whole question). */
export function frameFor(frame: Frame | undefined, c: Candidate): Frame | undefined {
  if (!frame || c.start < 0) return undefined;
  for (let i = c.start; i < c.end; i++) if (!frame[i]) return undefined;
  return frame;
}

/** Is token `i` readable: inside the frame, or every token when there is none? */
export const readable = (frame: Frame | undefined, i: number): boolean => frame === undefined || frame[i] === true;

/** Token `i`'s place in the frame, 0..1, and the frame's size (the whole question without one). */
export function placeIn(frame: Frame | undefined, i: number, n: number): number {
  if (!frame) return i / n;
  let before = 0;
  let size = 0;
  frame.forEach((inside, k) => {
    if (!inside) return;
    size++;
    if (k < i) before++;
  });
  return before / Math.max(1, size);
}
