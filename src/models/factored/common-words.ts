/**
 * Everyday words are no values: a text value of one lower-case word, unquoted, whose word is among the commonest of
 * training questions ("with", "from", "in": commoner than `limit`, WordStats) takes no chance; the others are scaled
 * back to sum 1. The scorer weighs commonness (features x[18], x[38]) but a word right beside a parameter's name
 * still wins ("building with building Id B1004"). From the learnt word statistics alone, no word list.
 */
import type { Candidate } from "./candidates.ts";
import type { FunctionView } from "./features.ts";

/** DecideOptions.commonWords's default: commoner words are no one-word values. */
export const COMMON_WORDS = 0.5;

/** `probs` holds one chance per candidate and may hold more after them (the null's), scaled too. */
export function dropCommonWords(f: FunctionView, candidates: readonly Candidate[], probs: number[], limit: number): void {
  const t = f.view.tokens;
  let dropped = false;
  candidates.forEach((c, i) => {
    if (c.family !== "span" || c.quoted || c.end - c.start !== 1) return;
    const k = t[c.start]!;
    if (k.kind !== "word" || /\p{Lu}/u.test(k.text) || (f.stats.get(k.stem) ?? 0) < limit) return;
    probs[i] = 0;
    dropped = true;
  });
  if (!dropped) return;
  const total = probs.reduce((a, b) => a + b, 0);
  if (total > 0) for (let i = 0; i < probs.length; i++) probs[i] = probs[i]! / total;
}
