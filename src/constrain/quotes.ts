/**
 * Text a person put in quotes: `"…"`, `“…”`, `«…»`, `` `…` ``, and `'…'` or `‘…’` when the quotes stand apart
 * from words (so "what's" and "don't" open nothing). The copy constraint (copy.ts) copies a quoted span whole
 * or not at all: "how many words in "the early bird catches the worm"" means the whole sentence, never "the
 * worm" (the demo model's copy before this rule).
 */

/** Closing quote by opening quote. */
const PAIRS = new Map([
  ['"', '"'],
  ["“", "”"],
  ["«", "»"],
  ["`", "`"],
  ["'", "'"],
  ["‘", "’"],
]);
/** Quotes that double as apostrophes: they must not touch a word on their outer side. */
const APOSTROPHES = new Set(["'", "‘", "’"]);

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}

/** A quoted span: the content's start and end (UTF-16 indices, quotes excluded). */
export interface QuotedSpan {
  start: number;
  end: number;
}

/** The quoted spans of `text`, left to right, none empty and none nested. */
export function quotedSpans(text: string): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  for (let i = 0; i < text.length; i++) {
    const open = text[i]!;
    const close = PAIRS.get(open);
    if (close === undefined) continue;
    if (APOSTROPHES.has(open) && isWordChar(text[i - 1])) continue;
    for (let j = i + 2; j < text.length; j++) {
      if (text[j] !== close) continue;
      if (APOSTROPHES.has(close) && (isWordChar(text[j + 1]) || /\s/.test(text[j - 1]!))) continue;
      spans.push({ start: i + 1, end: j });
      i = j;
      break;
    }
  }
  return spans;
}

/**
 * Text a person introduces after a colon without quoting it, when the words before the colon point at it
 * ("rot13 this: Uryyb Jbeyq", "make this all caps: please do not disturb", "the following: …"): from after the
 * colon to the end, a final "?" or "." aside. A quotation without quotes, taken whole like one. Only for a text
 * with no quotes of its own.
 */
export function introducedSpan(text: string): QuotedSpan | undefined {
  const m = /\b(?:this|these|the following)\b[^:"“«`]{0,40}:\s+(?=\S)/iu.exec(text);
  if (!m) return undefined;
  const start = m.index + m[0].length;
  let end = text.length;
  while (end > start && /[\s?.]/.test(text[end - 1]!)) end--;
  if (end <= start || text.slice(start, end).includes(":")) return undefined;
  return { start, end };
}

/** `text` without its quoted spans and their quotes: the pieces between them, in order (maybe empty). */
export function unquotedPieces(text: string, spans: readonly QuotedSpan[]): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const s of spans) {
    pieces.push(text.slice(from, s.start - 1));
    from = s.end + 1;
  }
  pieces.push(text.slice(from));
  return pieces;
}
