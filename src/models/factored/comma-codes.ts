/**
 * A name followed by a comma and a short code in capitals ("Los Angeles, CA", "Austin, TX") is one value: the code
 * says which place the name is. comma-names.ts widens a value that is the pair's second part; here the scorer took the
 * first part alone ("the nearest Walmart in Los Angeles, CA" gave loc "Los Angeles"). With one call per function, a
 * capitalised text value followed by ", XX" (two or three capital letters, a word of its own) widens over the code
 * when the code is free and no further comma goes on as a list ("CA, NV, AZ"). Reads the question's capitals and
 * commas only, no word list (DecideOptions.commaCodes; false for the ablation).
 */
import type { QToken } from "./text.ts";

const CODE = /^\p{Lu}{2,3}$/u;

/** The token range of "Name, XX" whose name is [start, end), or undefined where no code follows. */
export function commaCode(tokens: readonly QToken[], start: number, end: number, free: (range: [number, number]) => boolean): [number, number] | undefined {
  if (start < 0 || end <= start || tokens[end]?.text !== ",") return undefined;
  for (let i = start; i < end; i++) if (tokens[i]!.kind !== "word" || !/^\p{Lu}/u.test(tokens[i]!.text)) return undefined;
  const code = tokens[end + 1];
  if (!code || code.kind !== "word" || !CODE.test(code.text) || tokens[end + 2]?.text === ",") return undefined;
  return free([end + 1, end + 2]) ? [start, end + 2] : undefined;
}
