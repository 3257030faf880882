/**
 * Words that negate a flag named beside them ("history is not kept", "not inlined", "without the header"): a
 * language policy, not the model. The caller's features know no words of any language; with `negations` set
 * (DecideOptions; ENGLISH_NEGATIONS by default, `negations: false` for none), a boolean parameter whose name the
 * question writes within NEGATION_WINDOW words of one of them counts that mention for false, not for true.
 */
import type { QToken } from "./text.ts";

/** English words that negate what they stand beside (lower case, as written). */
export const ENGLISH_NEGATIONS: ReadonlySet<string> = new Set([
  "not",
  "no",
  "without",
  "never",
  "excluding",
  "exclude",
  "don't",
  "doesn't",
  "isn't",
  "aren't",
  "shouldn't",
  "mustn't",
  "non",
]);

/** How many words on each side of a name's mention a negation may stand. */
export const NEGATION_WINDOW = 2;

/**
 * Does a word of `stems` stand in `tokens` within NEGATION_WINDOW words of a negating word? Words that join list
 * items (`joiners`, learnt from training questions: "and") mention no flag. A name that holds a negating word
 * itself ("ensureNoSelfReferences") is said as it is: "no self-references" is a mention for true.
 */
export function negatedMention(
  tokens: readonly QToken[],
  nameWords: readonly string[],
  stems: ReadonlySet<string>,
  negations: ReadonlySet<string>,
  joiners: ReadonlySet<string>,
): boolean {
  if (nameWords.some((w) => negations.has(w))) return false;
  const words = tokens.filter((t) => t.kind === "word");
  return words.some(
    (t, i) =>
      t.stem !== "" &&
      stems.has(t.stem) &&
      !joiners.has(t.lower) &&
      words.slice(Math.max(0, i - NEGATION_WINDOW), i + NEGATION_WINDOW + 1).some((w) => w !== t && negations.has(w.lower)),
  );
}
