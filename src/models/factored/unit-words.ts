/**
 * Unit words: a word written right after a number the call takes ("a radius of 5cm", "a base of 12 meters") is
 * that number's unit. An empty optional text parameter that gives such a word (its span alone, or with its number:
 * "5cm" is offered whole) at least `minRatio` of its chance of leaving it out takes the word, one per value of the
 * number ("the first circle has a radius of 5cm, the second of 10cm"
 * gives each call its own). Which parameter wants a unit the learnt scorer says; the rule reads only where words
 * stand beside numbers, no words of any language and no parameter's name.
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

/** A parameter with its candidates and chances. */
export interface UnitSlot {
  candidates: readonly Candidate[];
  probs: readonly number[];
  pNull: number;
}

/**
 * DecideOptions.unitWords's default: a unit word's least chance, as a share of leaving the parameter out (chosen on
 * BFCL dev: 0.2 / 0.05 / 0.02 / 0.01 / 0.001 in DEVELOPMENT_PROBES).
 */
export const UNIT_WORDS = 0.01;

/** The word written right after the number at `at` (a token range), as a token index, or -1. */
function unitAfter(tokens: readonly QToken[], at: [number, number]): number {
  const t = tokens[at[1]];
  return t !== undefined && t.kind === "word" && !/^\p{Lu}/u.test(t.text) ? at[1] : -1;
}

/**
 * For each empty slot, its unit values in the order of `numbers` (the places of the values of the number parameter
 * with the most values), or undefined where the first number has no unit it wants enough. A later number without
 * a unit of its own repeats the unit before it.
 */
export function unitWords(
  tokens: readonly QToken[],
  numbers: readonly [number, number][],
  slots: readonly UnitSlot[],
  minRatio = UNIT_WORDS,
): (Candidate[] | undefined)[] {
  return slots.map((s) => {
    // the chance of the unit at token k: the best of the spans that hold it, alone or with the number before it
    const chance = (k: number) =>
      Math.max(0, ...s.candidates.map((c, i) => (c.family === "span" && !c.quoted && c.start <= k && k < c.end && c.end === k + 1 && c.start >= k - 1 ? s.probs[i]! : 0)));
    const out: Candidate[] = [];
    for (const r of numbers) {
      const k = unitAfter(tokens, r);
      if (k >= 0 && chance(k) >= minRatio * s.pNull) out.push({ family: "span", value: tokens[k]!.text, start: k, end: k + 1, quoted: false });
      else if (out.length > 0) out.push(out.at(-1)!);
      else return undefined;
    }
    return out.length > 0 ? out : undefined;
  });
}
