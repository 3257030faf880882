/**
 * Where a question mentions the members of an enum (each of a member's words found in the question, "toll" for
 * "tolls", "tennis court" for "Tennis Court", "wifi" for "Wi-Fi"): the list candidates of an array parameter whose
 * items are enum members (candidates.ts memberLists). Read from the schema alone: no word list.
 */
import { nameWords, stemOf, type QToken } from "./text.ts";

/** Shortest shared beginning that counts two words as one ("toll" / "tolls"): shorter words must match whole. */
const MIN_PREFIX = 4;

/** Does a question token say a member's word (same stem, or one the other's beginning, at least MIN_PREFIX long)? */
function sameWord(token: string, word: string): boolean {
  if (stemOf(token) === stemOf(word)) return true;
  const [a, b] = token.length < word.length ? [token, word] : [word, token];
  return a.length >= MIN_PREFIX && b.startsWith(a);
}

const letters = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** Where the question mentions `member`: the token range of its words' first mentions, close together; or none. */
function mention(tokens: readonly QToken[], member: unknown): [number, number] | undefined {
  const text = String(member);
  // a short code ("A", "GC") is matched as written: in lower case it is as often a word of the sentence
  if (letters(text).length <= 2) {
    const i = tokens.findIndex((t) => t.text === text);
    return i < 0 ? undefined : [i, i + 1];
  }
  // the member as one written token ("Wi-Fi", "gluten-free")
  const whole = tokens.findIndex((t) => t.kind === "word" && letters(t.text) === letters(text));
  if (whole >= 0) return [whole, whole + 1];
  const words = nameWords(text);
  if (words.length === 0) return undefined;
  const at: number[] = [];
  for (const w of words) {
    const i = tokens.findIndex((t, k) => t.kind === "word" && !at.includes(k) && sameWord(t.lower, w));
    if (i < 0) return undefined;
    at.push(i);
  }
  const start = Math.min(...at);
  const end = Math.max(...at) + 1;
  // the words of one member sit together ("court for tennis" still reads as the member; a page apart does not)
  return end - start <= words.length + 2 ? [start, end] : undefined;
}

/** The members the question mentions, with their token ranges, in the order the question names them. */
export function memberMentions(tokens: readonly QToken[], members: readonly unknown[]): { member: unknown; range: [number, number] }[] {
  return members
    .map((member) => ({ member, range: mention(tokens, member) }))
    .filter((x): x is { member: unknown; range: [number, number] } => x.range !== undefined)
    .sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
}
