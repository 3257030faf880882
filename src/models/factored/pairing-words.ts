/**
 * Pairing words: a language policy, not the model. Where the question says its lists pair in order ("Taylor Swift
 * and Maroon 5, with a play time of 20 minutes and 15 minutes respectively") and some parameter holds several
 * values, a text parameter holding one value takes the spans joined to it (commas and learnt joiner words between,
 * written as the first is), up to as many: "respectively" says the other list is as long even where the learnt
 * "more" model doubts it. With `pairing` false (DecideOptions) the caller knows no such word.
 */
import type { QToken } from "./text.ts";

/** English words that say lists pair in order (lower case, as written). */
export const ENGLISH_PAIRING: ReadonlySet<string> = new Set(["respectively"]);

/** Does the question hold a pairing word? */
export const saysPairing = (tokens: readonly QToken[], words: ReadonlySet<string> | undefined): boolean =>
  words !== undefined && tokens.some((t) => words.has(t.lower));
