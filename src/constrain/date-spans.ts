/**
 * Dates a person wrote out: "July 11th, 2025", "9th of December 1951", "Aug 19 2004", "2025-11-20 18:45",
 * "24/2/1998". The copy constraint (copy.ts) copies such a span whole or not at all, like quoted text: the demo
 * model began its date arguments after the month ("11th, 2025", "19 2004", "28 2018") and the tools could not
 * read them. A month name counts only with a day or a year beside it ("may" alone is a verb).
 */
import type { QuotedSpan } from "./quotes.ts";

const MONTH =
  "(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";
const DAY = "(?:[0-3]?\\d(?:st|nd|rd|th)?)";
const YEAR = "(?:\\d{4})";
const TIME = "(?:[T ](?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d)?)";
const FORMS = [
  // 2025-11-20, 2025-11-20 18:45, 2007-11-13T20:00
  `${YEAR}-\\d{1,2}-\\d{1,2}${TIME}?`,
  // 24/2/1998, 14.02.2024, 2/24/98
  `\\d{1,2}[/.]\\d{1,2}[/.](?:\\d{4}|\\d{2})`,
  // 9th of December 1951, 22 July 1962, 1 jan 2000, 9th of December
  `${DAY}(?: of)? ${MONTH}(?:,? ${YEAR})?`,
  // July 11th, 2025, Aug 19 2004, Dec 28 2018, June 1, feb 2028
  `${MONTH} ${DAY}(?:,? ${YEAR})?(?![\\d:])`,
  `${MONTH},? ${YEAR}`,
];
// not inside a word or a file name ("2021-05-05.txt")
const DATE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${FORMS.join("|")})(?![\\p{L}\\p{N}]|\\.[\\p{L}\\p{N}])`,
  "giu",
);

/** The date spans of `text`, left to right, none overlapping (the longest at each start). */
export function dateSpans(text: string): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  for (const m of text.matchAll(DATE)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}
