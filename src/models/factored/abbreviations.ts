/**
 * Example values a description writes after a dotted abbreviation ("e.g. Seattle, WA", "i.e., victim, accused").
 * A capitalised word right after a dotted abbreviation ("e.g. Seattle, WA", "i.e., Italian") does not start a
 * sentence: the tokenizer reads the abbreviation's closing dot as a sentence's end, so a description's example
 * values written after one were never read as values (features.ts exampleStems). An abbreviation is told by its
 * written form alone: single letters joined by dots ("e.g", "i.e", "U.S"), its closing dot glued to it.
 */
import type { QToken } from "./text.ts";

const DOTTED_LETTERS = /^(?:\p{L}\.)+\p{L}$/u;

/** Is token `i` a word with a capital that only a dotted abbreviation before it (commas between allowed) kept from counting as one? */
export function afterAbbreviation(tokens: readonly QToken[], i: number): boolean {
  const t = tokens[i];
  if (!t || t.kind !== "word" || t.capital || !/^\p{Lu}/u.test(t.text)) return false;
  let j = i - 1;
  while (j >= 0 && tokens[j]!.text === ",") j--;
  const dot = tokens[j];
  const word = tokens[j - 1];
  return dot?.text === "." && word !== undefined && word.end === dot.start && DOTTED_LETTERS.test(word.text);
}

/**
 * The word tokens of the examples a description lists after a dotted abbreviation ("e.g., sculpture", "i.e.,
 * victim, accused, verdict"), whatever their case: from the abbreviation's closing dot to the next sentence's end
 * (a dot not closing a dotted word), a closing bracket or a semicolon.
 */
export function listedExamples(tokens: readonly QToken[]): QToken[] {
  const out: QToken[] = [];
  for (let i = 1; i < tokens.length; i++) {
    const word = tokens[i - 1]!;
    if (tokens[i]!.text !== "." || word.end !== tokens[i]!.start || !DOTTED_LETTERS.test(word.text)) continue;
    for (let j = i + 1; j < tokens.length; j++) {
      const t = tokens[j]!;
      if (t.text === "." && !DOTTED_LETTERS.test(tokens[j - 1]!.text)) break;
      if (t.text === ")" || t.text === ";") break;
      if (t.kind === "word" && !DOTTED_LETTERS.test(t.text)) out.push(t);
    }
  }
  return out;
}
