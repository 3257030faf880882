/**
 * Words a number parameter's description uses to say it takes a percentage as written ("the interest rate for a
 * year as a percentage"), a language policy, not the model: with `percentWords` set (DecideOptions;
 * ENGLISH_PERCENT_WORDS by default, `percentWords: false` for none), "5%" is offered to such a parameter as 5 only,
 * not also as the fraction 0.05 (candidates.ts numbers), whose choice the scorer otherwise learns from synth's
 * percent questions, whose descriptions seldom say either way.
 */
import { stemOf, tokenize } from "./text.ts";

/** English words for "percent", by their stems (text.ts stemOf). */
export const ENGLISH_PERCENT_WORDS: ReadonlySet<string> = new Set(["percent", "percentage"].map(stemOf));

/** Does a description write one of the words (by stem)? */
export function saysPercent(description: string, words: ReadonlySet<string> | undefined): boolean {
  return words !== undefined && tokenize(description).some((t) => t.kind === "word" && words.has(t.stem));
}
