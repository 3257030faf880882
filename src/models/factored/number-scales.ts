/**
 * Numbers written with a scale word ("213 million", "1.2M", "2bn"): a language policy, not the model. The
 * caller's features know no words of any language; with `numberScales` set (DecideOptions; ENGLISH_NUMBER_SCALES by
 * default, `numberScales: false` for none), a number followed by a scale word is offered as the whole number it
 * writes ("50 million" → 50000000), read by the learnt number scorer as its digits would be. A scale of one or two
 * letters counts only written onto the digits, in the case given ("1M", not "1 M" nor "5m", which may be metres).
 */
import type { QToken } from "./text.ts";

/** A scale word → its factor: whole words by their lower case, short ones exactly as written. */
export type NumberScales = ReadonlyMap<string, number>;

/** English scale words and the short forms money and counts are written with ("k" is left out: "300K" is kelvins as often). */
export const ENGLISH_NUMBER_SCALES: NumberScales = new Map([
  ["thousand", 1e3],
  ["million", 1e6],
  ["billion", 1e9],
  ["trillion", 1e12],
  ["M", 1e6],
  ["B", 1e9],
  ["bn", 1e9],
]);

/** The factor of the scale word right after the number token at `at`, or undefined where there is none. */
export function scaleAfter(tokens: readonly QToken[], at: number, scales: NumberScales): number | undefined {
  const n = tokens[at];
  const t = tokens[at + 1];
  if (n?.kind !== "number" || t?.kind !== "word") return undefined;
  if (t.text.length <= 2) return n.end === t.start ? scales.get(t.text) : undefined;
  return scales.get(t.lower);
}
