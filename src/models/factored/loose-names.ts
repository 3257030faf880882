/**
 * How much of a parameter's name the question writes, with words matched a little more loosely than by stem
 * (text.ts stemOf: the first five letters). A short word and a longer one that share their first LOOSE_PREFIX
 * letters are one word here ("toll" / "tolls", "stats" / "statistics"), where a five-letter cut parts them. Only
 * letters are compared: nothing here knows a language's words or endings.
 */
import { nameWords, stemOf, type QToken } from "./text.ts";

/** Letters two words must share from their start. */
export const LOOSE_PREFIX = 4;
/** The shorter of the two may have at most this many letters (a longer word shares a prefix by chance). */
export const LOOSE_SHORT = 5;

/** Are two lower-case words one by stem, or by a shared start with the shorter of them short? */
export function looseSame(a: string, b: string): boolean {
  if (stemOf(a) === stemOf(b)) return stemOf(a) !== "";
  if (Math.min(a.length, b.length) > LOOSE_SHORT) return false;
  if (a.length < LOOSE_PREFIX || b.length < LOOSE_PREFIX) return false;
  return a.slice(0, LOOSE_PREFIX) === b.slice(0, LOOSE_PREFIX) && /^\p{L}+$/u.test(a.slice(0, LOOSE_PREFIX));
}

/**
 * The share of a name's distinct stems whose word the question writes, matched by looseSame; a code identifier
 * of the question ("searchHitParser", whose stem is all of it: text.ts) matches by its stem alone.
 */
export function looseNameCover(name: string, tokens: readonly QToken[]): number {
  const words = new Map<string, string>();
  for (const w of nameWords(name)) if (stemOf(w) !== "" && !words.has(stemOf(w))) words.set(stemOf(w), w);
  if (words.size === 0) return 0;
  const said = tokens.filter((t) => t.kind === "word" && t.stem !== "");
  const meets = (w: string, t: QToken) => (t.stem === stemOf(t.text) ? looseSame(w, t.lower) : t.stem === stemOf(w));
  let hit = 0;
  for (const w of words.values()) if (said.some((t) => meets(w, t))) hit++;
  return hit / words.size;
}
