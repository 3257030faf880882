/**
 * Written names: a question may write an offered function's whole name ("… using the 'sculptor_info.get'
 * function"). That names the function as plainly as a question can, even where none of its name words is its own
 * (sculptor_info.get beside sculpture_price.calculate share the stem "sculp") or its learnt chance is low; and the
 * name is no argument value of any call (the scorer, seeing a rare quoted identifier, gives it to a text parameter:
 * a state "us_history.population_by_state_year"). Only names of two or more words count (an identifier such as
 * get_weather, not a plain word such as "news" a question may write for its own sake). Reads the schema's names and
 * the question's tokens, no word of any language.
 */
import type { Candidate } from "./candidates.ts";
import { nameWords, type QToken } from "./text.ts";

/** For each name, the token places where the question writes it whole, letter for letter. */
export function writtenNamePlaces(tokens: readonly QToken[], names: readonly string[]): number[][] {
  return names.map((name) =>
    nameWords(name).length < 2 ? [] : tokens.flatMap((t, k) => (t.kind === "word" && t.text === name ? [k] : [])),
  );
}

/** What dropWrittenNames changes of a parameter's scores. */
export interface NameScored {
  info: { candidates: readonly Candidate[] };
  probs: number[];
  pNull: number;
  bound?: Candidate;
}

/**
 * A candidate that holds a written function name takes no chance; the others, the null's too, are scaled back to
 * sum 1. `places`: the token places of written names.
 */
export function dropWrittenNames(param: NameScored, places: readonly number[]): void {
  if (places.length === 0) return;
  let dropped = false;
  param.info.candidates.forEach((c, i) => {
    if (c.start < 0 || !places.some((k) => c.start <= k && k < c.end) || param.probs[i] === 0) return;
    param.probs[i] = 0;
    if (param.bound === c) delete param.bound;
    dropped = true;
  });
  if (!dropped) return;
  const total = param.probs.reduce((a, b) => a + b, param.pNull);
  if (total <= 0) return;
  for (let i = 0; i < param.probs.length; i++) param.probs[i] = param.probs[i]! / total;
  param.pNull /= total;
}
