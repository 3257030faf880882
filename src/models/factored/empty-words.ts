/**
 * An optional text parameter the scorer leaves out may still be written as one plain word: "in red" for `color`,
 * "patent lawsuits" for `case_type`. The scorer leaves most optional parameters out (synth's questions give few of
 * them), and BFCL fails a call that leaves out an optional value its answer holds as it fails one that adds a value
 * the answer leaves out. With one call, an empty optional text parameter takes its likeliest free one-word value
 * written in lower case without digits (unquoted), no everyday word (commoner than `common` in training questions)
 * and no name word of the function or its parameters, when that value's chance is at least `minRatio` of leaving
 * the parameter out. The capitalised names' counterpart (leftover-names.ts emptyNames); reads the learnt chances,
 * the word statistics and the schema only (DecideOptions.emptyWords, false for the ablation).
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

export interface EmptyWordSlot {
  candidates: readonly Candidate[];
  probs: readonly number[];
  pNull: number;
}

export interface EmptyWordContext {
  tokens: readonly QToken[];
  commonness: (stem: string) => number;
  /** Stems of the function's name and of its parameters' names. */
  names: ReadonlySet<string>;
  free: (c: Candidate) => boolean;
  take: (c: Candidate) => void;
}

/** Is the candidate one plain word: unquoted, lower case, no digit, uncommon, no name word? */
export function plainWord(cx: EmptyWordContext, c: Candidate, common: number): boolean {
  if (c.family !== "span" || c.quoted || c.start < 0 || c.end - c.start !== 1) return false;
  const t = cx.tokens[c.start]!;
  return t.kind === "word" && !/[\p{Lu}\p{N}]/u.test(t.text) && !cx.names.has(t.stem) && cx.commonness(t.stem) < common;
}

/** For each slot, the index of the word it takes (-1: none), spending each (`take`). */
export function emptyWords(slots: readonly EmptyWordSlot[], cx: EmptyWordContext, minRatio: number, common: number): number[] {
  return slots.map((s) => {
    let at = -1;
    s.candidates.forEach((c, i) => {
      if (plainWord(cx, c, common) && cx.free(c) && (at < 0 || s.probs[i]! > s.probs[at]!)) at = i;
    });
    if (at < 0 || s.probs[at]! < minRatio * s.pNull) return -1;
    cx.take(s.candidates[at]!);
    return at;
  });
}
