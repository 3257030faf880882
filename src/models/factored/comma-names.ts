/**
 * A place and its region written with a comma between ("in Seattle, Washington", "Rome, Italy") are one value in
 * two parts. The scorer, trained on synth questions whose values mostly stand after a comma or a colon and end the
 * question, gives the second part the text parameter's chance ("Seattle, Washington" → "Washington"). With one
 * call, a text value that is the capitalised second part of such a pair widens to the whole pair when the first
 * part is free (no other value spends it: "Tokyo, Japan" with a city and a country parameter stays two values) and
 * the pair does not go on as a list ("A, B and C", "A, B, C"). Reads the question's capitals, commas and the learnt
 * joiner words only (DecideOptions.commaNames; false for the ablation).
 */
import type { QToken } from "./text.ts";

/** Most words on each side of the comma. */
export const COMMA_NAME_WORDS = 3;

/** The token range of the whole "A, B" pair whose second part is [start, end), or undefined where there is none. */
export function commaName(
  tokens: readonly QToken[],
  start: number,
  end: number,
  joiners: ReadonlySet<string>,
  free: (range: [number, number]) => boolean,
): [number, number] | undefined {
  const capital = (i: number) => tokens[i]?.kind === "word" && tokens[i]!.capital;
  if (start < 2 || end - start > COMMA_NAME_WORDS || tokens[start - 1]!.text !== ",") return undefined;
  for (let i = start; i < end; i++) if (!capital(i)) return undefined;
  // the value ends where its words end: a further capitalised word is another name, not this one's
  if (capital(end)) return undefined;
  let s = start - 1;
  while (s > 0 && start - 1 - s < COMMA_NAME_WORDS && capital(s - 1)) s--;
  if (s === start - 1) return undefined;
  // a list: a comma or a joiner word before the first part or after the second ("A, B, C", "A, B and C")
  const lists = (i: number) => tokens[i] !== undefined && (tokens[i]!.text === "," || joiners.has(tokens[i]!.lower));
  if (lists(s - 1) || lists(end)) return undefined;
  return free([s, start - 1]) ? [s, end] : undefined;
}
