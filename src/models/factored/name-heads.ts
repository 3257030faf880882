/**
 * A lowercase word that repeats the last word of a capitalised name written before it stands for that name:
 * "the operational hours for Louvre Museum … travel from my current location to the museum" asks the travel for
 * "Louvre Museum". A value said once serves a later call that points back to it with the name's head word. Reads
 * the question's capitals and stems only, no word list (DecideOptions.nameHeads, false for the ablation).
 */
import type { Candidate } from "./candidates.ts";
import { runAround } from "./named-runs.ts";
import type { QToken } from "./text.ts";

/**
 * The index of the candidate that is the nearest earlier whole capitalised name of two words or more whose last
 * word has the stem of `value`, a one-word lowercase span; -1 where `value` is no such word or no name fits.
 */
export function headNamed(tokens: readonly QToken[], value: Candidate, candidates: readonly Candidate[]): number {
  if (value.family !== "span" || value.quoted || value.start < 0 || value.end - value.start !== 1) return -1;
  const word = tokens[value.start]!;
  if (word.kind !== "word" || word.capital || word.text !== word.lower || word.stem === "") return -1;
  let best = -1;
  candidates.forEach((c, i) => {
    if (c.family !== "span" || c.quoted || c.start < 0 || c.end > value.start || c.end - c.start < 2) return;
    const run = runAround(tokens, c.start, c.end);
    if (!run || run[0] !== c.start || run[1] !== c.end || tokens[c.end - 1]!.stem !== word.stem) return;
    if (best < 0 || c.start > candidates[best]!.start) best = i;
  });
  return best;
}
