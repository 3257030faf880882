/**
 * The question as tokens with character offsets, and words compared by a crude stem (lower case, first five
 * characters): the factored caller's only notion of "the same word". Nothing here knows a language's words.
 */

export interface QToken {
  text: string;
  lower: string;
  stem: string;
  start: number;
  end: number;
  /** "number": digits (1,234 / -3 / 2.5); "word": letters, digits and joiners inside; "punct": anything else. */
  kind: "number" | "word" | "punct";
  /** The number a number token states. */
  value?: number;
  /** Starts with a capital letter and is not the first word of a sentence. */
  capital: boolean;
}

const TOKEN =
  /-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE]-?\d+)?(?![\d_])|[/~]?[\p{L}\p{N}_](?:[\p{L}\p{N}_'\-./@:]*[\p{L}\p{N}_])?|[^\s]/gu;

const IDENTIFIER = /\p{Ll}\p{Lu}|[\p{L}\p{N}]_[\p{L}\p{N}]/u;
/** A name written with a dot, "@", "/" or ":" between letters or digits: "domain.com", "a@b.org", "com.example.Main". */
const DOTTED = /[\p{L}\p{N}][.@/:][\p{L}\p{N}]/u;

export const stemOf = (word: string): string => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "").slice(0, 5);

/** `dotted` false: a dotted name is stemmed by its first letters as a plain word ("domain.com" as "domain"). */
export function tokenize(text: string, dotted = true): QToken[] {
  const out: QToken[] = [];
  let sentenceStart = true;
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    const start = m.index;
    const isNumber = /^-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE]-?\d+)?$/.test(t);
    // a minus sign glued to a word before it is a hyphen, not a sign
    if (isNumber && t.startsWith("-") && start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1]!)) {
      out.push(mk("-", start, "punct", false, dotted));
      out.push(mk(t.slice(1), start + 1, "number", false, dotted));
      sentenceStart = false;
      continue;
    }
    const kind = isNumber ? "number" : /[\p{L}\p{N}_]/u.test(t[t.length - 1]!) ? "word" : "punct";
    out.push(mk(t, start, kind, kind === "word" && !sentenceStart && /^\p{Lu}/u.test(t), dotted));
    sentenceStart = kind === "punct" ? /[.!?:]/.test(t) || sentenceStart : false;
  }
  return out;
}

function mk(t: string, start: number, kind: QToken["kind"], capital: boolean, dotted: boolean): QToken {
  // a code identifier ("searchHitParser", "max_results") is one name, not the word it starts with: its stem is
  // all of it, so that it matches no documentation word by its first letters alone; so is a dotted name
  // ("domain.com" is no mention of a parameter "domain")
  const stem = IDENTIFIER.test(t) || (dotted && kind === "word" && DOTTED.test(t)) ? t.toLowerCase() : stemOf(t);
  const token: QToken = { text: t, lower: t.toLowerCase(), stem, start, end: start + t.length, kind, capital };
  if (kind === "number") token.value = Number(t.replace(/,/g, ""));
  return token;
}

/** A name as words: "colisId" → ["colis", "id"], "get_area" → ["get", "area"]. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .toLowerCase()
    .split(" ")
    .filter((w) => w !== "");
}

/** The stems of a free text's words (a description). */
export function textStems(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind !== "punct")
    .flatMap((t) => nameWords(t.text).map(stemOf))
    .filter((s) => s !== "");
}
