/**
 * A capitalised word and a number, then a comma and a number ("January 1, 2021", "Jan 28, 2021", "March 10th,
 * 2023"): one value written in two parts, as a date is, which word spans (they stop at punctuation) cannot offer. A
 * text parameter is offered the whole, and it takes the chance of the spans inside it too (the scorer, trained on
 * values without commas, splits it into rivals). From how the question is written, no word of any language.
 */
import type { QToken } from "./text.ts";

/** What joinNumberCommas reads of a candidate (candidates.ts Candidate). */
interface SpanLike {
  family: string;
  value: unknown;
  start: number;
  end: number;
  quoted: boolean;
}

/** The token ranges of the question's whole "Word N, M" spans (a glued suffix on N, "10th", stays with it). */
export function numberCommaRanges(t: readonly QToken[]): [number, number][] {
  const out: [number, number][] = [];
  t.forEach((w, s) => {
    if (w.kind !== "word" || !/^\p{Lu}/u.test(w.text) || t[s + 1]?.kind !== "number") return;
    let m = s + 2;
    // a suffix written onto the number ("10th")
    if (t[m]?.kind === "word" && t[m]!.start === t[m - 1]!.end) m++;
    if (t[m]?.text !== "," || t[m + 1]?.kind !== "number" || t[m + 1]!.start === t[m]!.end) return;
    // the number after the comma ends the value: not one of a run of numbers ("Grade 12, 24, 36")
    const after = t[m + 2];
    if (after !== undefined && after.text === "," && t[m + 3]?.kind === "number") return;
    out.push([s, m + 2]);
  });
  return out;
}

/**
 * Each "Word N, M" span takes the chance of the comma-free spans inside it; all chances are scaled back to sum 1
 * (`probs` holds one chance per candidate, and may hold more after them, the null's, which are scaled too).
 */
export function joinNumberCommas(candidates: readonly SpanLike[], probs: number[]): void {
  const whole = candidates.map((c) => c.family === "span" && !c.quoted && c.end - c.start >= 4 && isNumberComma(c));
  if (!whole.includes(true)) return;
  const add = candidates.map((c, i) =>
    !whole[i]
      ? 0
      : candidates.reduce((a, d, j) => (j !== i && !whole[j] && d.family === "span" && d.start >= c.start && d.end <= c.end ? a + probs[j]! : a), 0),
  );
  add.forEach((x, i) => (probs[i] = probs[i]! + x));
  const total = probs.reduce((a, b) => a + b, 0);
  for (let i = 0; i < probs.length; i++) probs[i] = probs[i]! / total;
}

const NUMBER_COMMA = /^\p{Lu}\S*\s+\d+\p{L}*,\s*\d+$/u;
const isNumberComma = (c: SpanLike): boolean => NUMBER_COMMA.test(String(c.value));
