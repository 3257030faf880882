/**
 * A span that ends at a comma (or a semicolon) with more of the question after it, as against one that ends the
 * question or its sentence. features.ts x[23] reads every punctuation mark after a span alike; in one-call training
 * questions a value mostly ends the question, while a question of several requests puts a comma after its
 * clause-linking words ("and finally, can you …", "after that, …"). The weight is learnt (a second pass), no word
 * list.
 */
import type { QToken } from "./text.ts";

const MID_MARKS = new Set([",", ";"]);

/** Is the token after [.., end) (past a closing quote mark of a quoted span) a comma or semicolon that more follows? */
export function endsAtComma(tokens: readonly QToken[], end: number, quoted: boolean): boolean {
  let i = end;
  if (quoted && i < tokens.length && tokens[i]!.kind === "punct" && !MID_MARKS.has(tokens[i]!.text)) i++;
  return i + 1 < tokens.length && MID_MARKS.has(tokens[i]!.text);
}
