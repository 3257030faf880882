/**
 * Words that link two capitalised runs into one name ("the Museum of Modern Art", "the Battle of Stalingrad"), a
 * language policy, not the model: with `nameLinks` set (DecideOptions; ENGLISH_NAME_LINKS by default, `nameLinks:
 * false` for none), a text value that is all capitalised words, with such a word and another capitalised run right
 * after it (or before it), widens to the whole name where the scorer offers that span and its words are free.
 * Learnt joiners ("and") are list words, not these.
 */
import type { QToken } from "./text.ts";

/** English words inside names of several capitalised words. */
export const ENGLISH_NAME_LINKS: ReadonlySet<string> = new Set(["of"]);

/** The token range of the whole linked name around [start, end) (the same range where there is none). */
export function linkedName(tokens: readonly QToken[], start: number, end: number, links: ReadonlySet<string>): [number, number] {
  const capital = (i: number) => tokens[i]?.kind === "word" && tokens[i]!.capital;
  if (start >= end || !tokens.slice(start, end).every((k) => k.capital)) return [start, end];
  let [s, e] = [start, end];
  if (links.has(tokens[e]?.lower ?? "") && capital(e + 1)) for (e += 1; capital(e); e++);
  if (links.has(tokens[s - 1]?.lower ?? "") && capital(s - 2)) for (s -= 1; capital(s - 1); s--);
  return [s, e];
}
