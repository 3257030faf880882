/**
 * Quoted joins: two quoted texts with nothing between them but their quote marks and commas or learnt joiner
 * words ('"Climate Change" and "Artificial Intelligence"') are a list as much as two plain values joined so are.
 * This counts as a further value's evidence only (the learnt "more" model still has to say yes), not as the
 * "joined" feature the model was trained with, which stops at quote marks. Only punctuation and the learnt
 * joiners are read.
 */
import type { QToken } from "./text.ts";

/** A quote mark token. */
const QUOTE = /^["'\u2018\u2019\u201c\u201d`]$/;

/** Are token ranges `a` and `b` (quoted texts' insides) joined only by quote marks and at least one comma or joiner (at most 5 tokens)? */
export function quotedJoined(tokens: readonly QToken[], joiners: ReadonlySet<string>, a: [number, number], b: [number, number]): boolean {
  const [x, y] = a[0] < b[0] ? [a, b] : [b, a];
  if (y[0] <= x[1] || y[0] - x[1] > 5) return false;
  let joined = false;
  for (let i = x[1]; i < y[0]; i++) {
    const t = tokens[i]!;
    if (t.text === "," || joiners.has(t.lower)) joined = true;
    else if (!QUOTE.test(t.text)) return false;
  }
  return joined;
}
