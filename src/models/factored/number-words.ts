/**
 * Numbers a question writes in words ("three pumpkins", "the next five years", "twenty-five"): a language policy,
 * not the model. The caller's features know no words of any language; with `numberWords` set (DecideOptions;
 * ENGLISH_NUMBER_WORDS by default, `numberWords: false` for none), a number parameter is also offered each such
 * word as a value (candidates.ts numbers), read by the same learnt number scorer as digits are.
 */
import { ONES, TENS } from "../../constrain/number-words.ts";
import type { QToken } from "./text.ts";

/** A written word → the whole number it stands for (lower case, as written). */
export type NumberWords = ReadonlyMap<string, number>;

function english(): Map<string, number> {
  const out = new Map<string, number>();
  ONES.forEach((w, i) => out.set(w, i));
  TENS.forEach((w, i) => {
    if (w === "") return;
    out.set(w, 10 * i);
    // "twenty-five" is one token (text.ts tokenize keeps hyphens inside a word)
    for (let k = 1; k < 10; k++) out.set(`${w}-${ONES[k]!}`, 10 * i + k);
  });
  return out;
}

/** English number words 0 to 99 ("zero" … "ninety-nine"). */
export const ENGLISH_NUMBER_WORDS: NumberWords = english();

/** The question's tokens that write a number in words, with their values. */
export function numberWordTokens(tokens: readonly QToken[], words: NumberWords): { at: number; value: number }[] {
  return tokens.flatMap((t, at) => {
    const value = t.kind === "word" ? words.get(t.lower) : undefined;
    return value === undefined ? [] : [{ at, value }];
  });
}
