/**
 * A name the question writes with capitals inside a sentence ("San Francisco", "Los Angeles") is there to be a
 * value: when the joint assignment leaves such a run of capitalised words unspent while a text parameter took a
 * word written without capitals ("the house in San Francisco ... 1800 square feet" gave location "feet"), that
 * parameter takes the run instead, if the run's chance is at least `minRatio` of the word's. Reads the question's
 * capitals and the schema's types only (DecideOptions.leftoverNames, false for the ablation).
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

/** Is [start, end) a whole run of capitalised words (none just before or after it)? */
export function capitalRun(tokens: readonly QToken[], c: Candidate): boolean {
  if (c.family !== "span" || c.quoted || c.start < 0) return false;
  const inside = tokens.slice(c.start, c.end);
  if (inside.length === 0 || !inside.every((k) => k.capital && k.kind === "word")) return false;
  return tokens[c.start - 1]?.capital !== true && tokens[c.end]?.capital !== true;
}

/**
 * A span written with no capital letter and no digit, unquoted: an everyday word, not an identifier the question
 * writes on purpose ("rs6034464").
 */
export const lowerSpan = (tokens: readonly QToken[], c: Candidate): boolean =>
  c.family === "span" && !c.quoted && c.start >= 0 && tokens.slice(c.start, c.end).every((k) => !/[\p{Lu}\p{N}]/u.test(k.text));

export interface NameSlot {
  candidates: readonly Candidate[];
  probs: readonly number[];
  /** Index of the value it took. */
  at: number;
}

/**
 * For each slot (a text parameter holding one lower-case value), the index of the capitalised run it takes
 * instead (-1: keeps its value). Slots go likeliest run first; `free` says whether a run is unspent, `take`
 * spends it.
 */
export function leftoverNames(
  tokens: readonly QToken[],
  slots: readonly NameSlot[],
  free: (c: Candidate) => boolean,
  take: (c: Candidate) => void,
  minRatio: number,
): number[] {
  const out = slots.map(() => -1);
  const open = new Set(slots.map((s, i) => (lowerSpan(tokens, s.candidates[s.at]!) ? i : -1)).filter((i) => i >= 0));
  const best = (s: NameSlot): number => {
    let at = -1;
    s.candidates.forEach((c, i) => {
      if (!capitalRun(tokens, c) || !free(c)) return;
      if (at < 0 || s.probs[i]! > s.probs[at]!) at = i;
    });
    return at;
  };
  while (open.size > 0) {
    let pick = -1;
    let pickAt = -1;
    for (const i of open) {
      const s = slots[i]!;
      const at = best(s);
      if (at < 0 || s.probs[at]! < minRatio * s.probs[s.at]!) continue;
      if (pick < 0 || s.probs[at]! > slots[pick]!.probs[pickAt]!) [pick, pickAt] = [i, at];
    }
    if (pick < 0) break;
    open.delete(pick);
    out[pick] = pickAt;
    take(slots[pick]!.candidates[pickAt]!);
  }
  return out;
}

export interface EmptySlot {
  candidates: readonly Candidate[];
  probs: readonly number[];
  pNull: number;
}

/**
 * The same for an empty optional text parameter (DecideOptions.emptyNames): it takes its likeliest free run of
 * capitalised words when that run's chance is at least `minRatio` of leaving it out ("'Zelda' on Switch for user
 * 'Sam'" for platform, default "PC"). Returns the index each slot takes (-1: none), spending each (`take`).
 */
export function emptyNames(
  tokens: readonly QToken[],
  slots: readonly EmptySlot[],
  free: (c: Candidate) => boolean,
  take: (c: Candidate) => void,
  minRatio: number,
): number[] {
  return slots.map((s) => {
    let at = -1;
    s.candidates.forEach((c, i) => {
      if (capitalRun(tokens, c) && free(c) && (at < 0 || s.probs[i]! > s.probs[at]!)) at = i;
    });
    if (at < 0 || s.probs[at]! < minRatio * s.pNull) return -1;
    take(s.candidates[at]!);
    return at;
  });
}
