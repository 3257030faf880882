/**
 * A parameter's name word binds the value written right beside it before one written a word or two further off:
 * in "Chinese cuisine in Seattle" the name word "cuisine" stands against "Chinese", yet the scorer, trained on synth
 * questions where a name stands before its value ("cuisine Seattle"), reads "cuisine in Seattle" as the stronger cue
 * and gives cuisine "Seattle". Where a text parameter's likeliest value is a name written with capitals and takes its
 * own-name cue from a name word one or two words away, and a span of words written right against that same name word on its other side is a
 * candidate (no everyday word, none of the parameter's name words, not the question's first word), the two exchange
 * their chances, and the leftover steps (leftover-names.ts) leave a value so bound in place. Reads the schema's parameter names, the learnt word statistics and token places only
 * (DecideOptions.nameNeighbours; false for the ablation).
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

/** The most words a name word's neighbour may hold. */
const MAX_WORDS = 3;

export interface NeighbourContext {
  tokens: readonly QToken[];
  /** Stems of the parameter's own name words. */
  nameStems: ReadonlySet<string>;
  /** How common a word stem is in training questions (0..1). */
  commonness: (stem: string) => number;
  /** Words at least this common are no value's first word. */
  common: number;
  /** A possessive ending (possessives.ts): a word so written before a name word is its owner ("my painting's medium"), no value of it. */
  possessive?: RegExp;
}

/** Is the value written right against one of the parameter's own name words (a value the name binds)? */
export function againstName(tokens: readonly QToken[], nameStems: ReadonlySet<string>, c: Candidate): boolean {
  if (!plainSpan(c)) return false;
  const isName = (i: number) => tokens[i]?.kind === "word" && tokens[i]!.stem !== "" && nameStems.has(tokens[i]!.stem);
  return isName(c.start - 1) || isName(c.end);
}

const plainSpan = (c: Candidate): boolean => c.family === "span" && !c.quoted && c.start >= 0 && !c.items;

/**
 * Exchanges, in place, the chance of the likeliest text value and that of the name word's neighbour where the rule
 * above says so; returns the neighbour's index (-1: nothing changed). `probs` holds one chance per candidate.
 */
export function bindNameNeighbour(candidates: readonly Candidate[], probs: number[], cx: NeighbourContext): number {
  const t = cx.tokens;
  let best = -1;
  candidates.forEach((c, i) => {
    if (best < 0 || probs[i]! > probs[best]!) best = i;
  });
  const top = candidates[best];
  // a name written with capitals ("Seattle", "Los Angeles"): a value of its own kind, put after a preposition
  if (!top || !plainSpan(top) || !t.slice(top.start, top.end).every((k) => k.capital)) return -1;
  const isName = (i: number) => t[i]?.kind === "word" && t[i]!.stem !== "" && cx.nameStems.has(t[i]!.stem);
  // already bound: a name word right beside the value
  if (againstName(t, cx.nameStems, top)) return -1;
  // the name word one or two words before the value (or after it, the mirror), only words between
  const between = (a: number, b: number) => t.slice(a, b).every((k) => k.kind === "word" && !cx.nameStems.has(k.stem));
  let name = -1;
  let side: "before" | "after" = "before";
  for (const gap of [1, 2]) {
    if (isName(top.start - 1 - gap) && between(top.start - gap, top.start)) [name, side] = [top.start - 1 - gap, "before"];
    else if (isName(top.end + gap) && between(top.end, top.end + gap)) [name, side] = [top.end + gap, "after"];
    if (name >= 0) break;
  }
  if (name < 0) return -1;
  let pick = -1;
  candidates.forEach((c, i) => {
    if (!plainSpan(c) || probs[i]! <= 0) return;
    if (side === "before" ? c.end !== name : c.start !== name + 1) return;
    const words = t.slice(c.start, c.end);
    if (words.length > MAX_WORDS || c.start === 0 || words.some((k) => k.kind !== "word" || cx.nameStems.has(k.stem))) return;
    if (cx.commonness(words[0]!.stem) >= cx.common || cx.commonness(words[words.length - 1]!.stem) >= cx.common) return;
    if (side === "before" && cx.possessive?.test(words[words.length - 1]!.text)) return;
    if (pick < 0 || probs[i]! > probs[pick]!) pick = i;
  });
  if (pick < 0) return -1;
  [probs[best], probs[pick]] = [probs[pick]!, probs[best]!];
  return pick;
}
