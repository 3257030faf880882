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

// 9:30, 09:30, 18:45:10, 3pm, 3 p.m., 10:15am; not inside a word, a number or a date's own time
const TIME_OF_DAY =
  /(?<![\p{L}\p{N}:.])(?:(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s?[ap]\.?m\.?)?|(?:1[0-2]|0?[1-9])\s?[ap]\.?m\.?)(?![\p{L}\p{N}:])/giu;

/** The times of day `text` writes ("9:30", "3pm"), left to right. */
export function timeSpans(text: string): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  for (const m of text.matchAll(TIME_OF_DAY)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/**
 * A date and a time written apart ("9:30 in New York on 2026-03-10", "3pm Tokyo time on June 1 2025") as one
 * value, the date then the time: what a property taking a date and time is given (the demo model copied the
 * date alone, and the tool could not tell the hour). Only for one date without its own time and one time.
 */
export function joinedDateTime(text: string): { value: string; date: string } | undefined {
  const dates = dateSpans(text);
  if (dates.length !== 1) return undefined;
  const date = text.slice(dates[0]!.start, dates[0]!.end);
  if (/\d:\d/.test(date)) return undefined;
  const times = timeSpans(text).filter((t) => t.end <= dates[0]!.start || t.start >= dates[0]!.end);
  if (times.length !== 1) return undefined;
  return { value: `${date} ${text.slice(times[0]!.start, times[0]!.end)}`, date };
}

/** Does a property of this name (its words) take a date and a time ("datetime", "date_time", "start_time")? */
export function takesDateTime(words: readonly string[]): boolean {
  return words.includes("datetime") || (words.includes("date") && words.includes("time"));
}
