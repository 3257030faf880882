/**
 * A one-word text value is often the head or the modifier of a two-word name ("the plasma membrane", "the Amazon
 * rainforest", "pasta carbonara", "the 19th century"): the scorer, trained on mostly one-word synth values, gives
 * the pair a fraction of the word's chance. A text value of one unquoted word widens to the two-word span it makes
 * with the word beside it when that span's chance is at least `minRatio` of the word's and the word beside it is
 * free (no other value spent it), written with a capital where the value is and without where it is not ("in
 * Zorbalin" is no name, though a small model's statistics never met "in"), a value on its own with at least
 * PART_RATIO of the word's chance, no everyday word (commoner than `common` in training questions, WordStats), no
 * name word of the function or of any of its parameters ("Chinese cuisine" stays "Chinese"), and no punctuation.
 * Reads the learnt chances, the word statistics and the schema's names only (DecideOptions.phrases; false for the
 * ablation).
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

/** The least chance of the word beside, alone, as a share of the value's. */
export const PART_RATIO = 0.05;

export interface PhraseSlot {
  candidates: readonly Candidate[];
  probs: readonly number[];
  /** Index of the value it took. */
  at: number;
}

export interface PhraseContext {
  tokens: readonly QToken[];
  /** How common a word stem is in training questions (0..1). */
  commonness: (stem: string) => number;
  /** Stems of the function's name and of its parameters' names. */
  names: ReadonlySet<string>;
  /** Is the token range unspent by other values? */
  free: (range: [number, number]) => boolean;
}

/** The index of the two-word span the slot's value widens to (-1: it stays). */
export function widenedPhrase(slot: PhraseSlot, cx: PhraseContext, minRatio: number, common: number): number {
  const c = slot.candidates[slot.at];
  if (!c || c.family !== "span" || c.quoted || c.start < 0 || c.end - c.start !== 1) return -1;
  const p0 = slot.probs[slot.at]!;
  let best = -1;
  for (const side of [-1, 1]) {
    const k = side < 0 ? c.start - 1 : c.end;
    const t = cx.tokens[k];
    if (!t || t.kind !== "word" || cx.names.has(t.stem) || cx.commonness(t.stem) >= common) continue;
    // written as the value is, with a capital or without ("in Zorbalin" is no name)
    if (/^\p{Lu}/u.test(t.text) !== /^\p{Lu}/u.test(cx.tokens[c.start]!.text)) continue;
    if (!cx.free([k, k + 1])) continue;
    const [s, e] = side < 0 ? [k, c.end] : [c.start, k + 1];
    const at = slot.candidates.findIndex((d) => d.family === "span" && !d.quoted && d.start === s && d.end === e);
    if (at < 0 || slot.probs[at]! < minRatio * p0) continue;
    // the word beside is a plausible value on its own too (a word the statistics never met may still be "in")
    const alone = slot.candidates.findIndex((d) => d.family === "span" && !d.quoted && d.start === k && d.end === k + 1);
    if (alone < 0 || slot.probs[alone]! < PART_RATIO * p0) continue;
    if (best < 0 || slot.probs[at]! > slot.probs[best]!) best = at;
  }
  return best;
}
