/**
 * A sentence's opening word set off by a comma ("Lastly, I need …", "Second, …", "Furthermore, …") frames the
 * sentence: it is no value. The argument scorer, trained on one-request questions, reads such a word as a rare,
 * well-bounded capitalised word, the shape of a name, and gives it the best chance of a text parameter in a long
 * question of several requests. A one-word text value, unquoted, whose word opens a sentence (the tokenizer's
 * sentence-initial capital, text.ts) with a comma right after it takes no chance; the others are scaled back to sum
 * 1. Reads the question's punctuation and capitals only, no word of any language.
 */
import type { Candidate } from "./candidates.ts";
import type { QToken } from "./text.ts";

/** Does the word at token `i` open a sentence with a comma right after it? */
export function sentenceOpener(tokens: readonly QToken[], i: number): boolean {
  const k = tokens[i];
  return k !== undefined && k.kind === "word" && !k.capital && /^\p{Lu}/u.test(k.text) && tokens[i + 1]?.text === ",";
}

/** `probs` holds one chance per candidate and may hold more after them (the null's), scaled too. */
export function dropSentenceOpeners(tokens: readonly QToken[], candidates: readonly Candidate[], probs: number[]): void {
  let dropped = false;
  candidates.forEach((c, i) => {
    if (c.family !== "span" || c.quoted || c.start < 0 || c.end - c.start !== 1 || !sentenceOpener(tokens, c.start)) return;
    probs[i] = 0;
    dropped = true;
  });
  if (!dropped) return;
  const total = probs.reduce((a, b) => a + b, 0);
  if (total > 0) for (let i = 0; i < probs.length; i++) probs[i] = probs[i]! / total;
}
