/**
 * Lists of plain words: "the price of tomatoes and lettuce", "chicken, rice and mushrooms". A list parameter is
 * offered lists of capitalised runs, quoted texts and numbers (candidates.ts itemRanges); lower-case words, which
 * most text in a question is, are no items there, so "tomatoes and lettuce" was never a candidate and the list took
 * a place name ("Los Angeles"). A run of two or more one-word lower-case items, each joined to the next by commas
 * and learnt joiner words, the last join holding a joiner word and no comma going on after the run, is offered as
 * one list (DecideOptions.plainLists; false for the ablation). With `twoWords` (DecideOptions.twoWordItems) an inner
 * item between a comma and the next join may be two words ("efficient, organized, easy going and compassionate").
 * Reads the question's capitals, commas and the learnt joiner words only.
 */
import type { QToken } from "./text.ts";

/** Most tokens between two items of a run (commas and joiner words). */
const MAX_JOIN = 3;

/** Each run of plain one-word items, as the items' token ranges. */
export function plainListRuns(
  tokens: readonly QToken[],
  joiners: ReadonlySet<string>,
  inQuote: (i: number) => boolean,
  twoWords = false,
): [number, number][][] {
  const plain = (i: number) => {
    const t = tokens[i];
    return t !== undefined && t.kind === "word" && !t.capital && !joiners.has(t.lower) && !inQuote(i) && !/\d/.test(t.text);
  };
  const link = (i: number) => tokens[i] !== undefined && (tokens[i]!.text === "," || joiners.has(tokens[i]!.lower));
  const out: [number, number][][] = [];
  for (let a = 0; a < tokens.length; a++) {
    if (!plain(a)) continue;
    const run: [number, number][] = [[a, a + 1]];
    let b = a;
    for (;;) {
      let c = b + 1;
      while (c - b <= MAX_JOIN && link(c)) c++;
      if (c === b + 1 || !plain(c)) break;
      // twoWords: an item after a comma alone may be two words where a comma or joiner word follows them
      // ("organized, easy going and"): the commas mark where it starts; the last item, after the joiner, stays one word
      const commaOnly = tokens.slice(b + 1, c).every((k) => k.text === ",");
      if (twoWords && commaOnly && plain(c + 1) && link(c + 2)) {
        run.push([c, c + 2]);
        b = c + 1;
        continue;
      }
      run.push([c, c + 1]);
      b = c;
    }
    a = b;
    if (run.length < 2) continue;
    // closed by a joiner word ("A, B and C"), and the run does not go on past a comma ("A and B, but")
    const last = tokens.slice(run[run.length - 2]![1], run[run.length - 1]![0]);
    if (last.some((k) => joiners.has(k.lower)) && tokens[b + 1]?.text !== ",") out.push(run);
  }
  return out;
}
