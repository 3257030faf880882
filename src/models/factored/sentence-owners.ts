/**
 * Sentence owners: with several functions called, the question is cut into one segment per function from each
 * function's first mention on (decide.ts spanOwners). A sentence that mentions exactly one of the functions by its
 * own name words (those no other of them has) is that function's whole, wherever the segments would cut it ("You
 * have two shapes, a triangle and a circle. For the triangle, the sides are 5, 7 and 9 units. For the circle, the
 * radius is 3 units": the sides are the triangle's, though the circle is mentioned before them). Sentences that
 * mention none or several keep the segments' owners; where some function's own name words are not written at all
 * (it is mentioned by its description's words), the segments stay as they are. Reads only sentence punctuation
 * and the functions' names.
 */
import type { QToken } from "./text.ts";

/** Marks that end a sentence; "." only before a capitalised word, a quote mark or the end ("Inc., Google" goes on). */
const ENDS = new Set(["?", "!", ";"]);

/** The question's sentences as token ranges [from, to). */
export function sentenceRanges(tokens: readonly QToken[]): [number, number][] {
  const out: [number, number][] = [];
  let from = 0;
  tokens.forEach((t, k) => {
    if (t.kind !== "punct") return;
    const next = tokens[k + 1];
    const end =
      ENDS.has(t.text) ||
      (t.text === "." && (next === undefined || /^\p{Lu}/u.test(next.text) || (next.kind === "punct" && /^["'“”]$/.test(next.text))));
    if (!end) return;
    out.push([from, k + 1]);
    from = k + 1;
  });
  if (from < tokens.length) out.push([from, tokens.length]);
  return out;
}

/** `owner` (one function index per token) with each sentence that mentions exactly one function given to it. */
export function sentenceOwners(
  tokens: readonly QToken[],
  sentences: readonly [number, number][],
  own: readonly ReadonlySet<string>[],
  owner: readonly number[],
): number[] {
  const out = [...owner];
  if (!own.every((o) => tokens.some((t) => o.has(t.stem)))) return out;
  for (const [a, b] of sentences) {
    const words = tokens.slice(a, b);
    const said = own.flatMap((o, i) => (words.some((t) => o.has(t.stem)) ? [i] : []));
    if (said.length === 1) for (let k = a; k < b; k++) out[k] = said[0]!;
  }
  return out;
}
