import type { Rng } from "../nn/rng.ts";
import { ONES, TENS } from "../constrain/number-words.ts";
import { MONTHS } from "./dates.ts";
import { NAMES } from "./tools/names.ts";

/**
 * How people write the values the demo's tools take: numbers as digits or words, units by name, symbol or
 * abbreviation, cities and time zones by their common names, locales by language (./tools/names.ts), dates in
 * several formats. The generator writes a question with one of these forms and teaches the call with the
 * tool's value (the tools read every form; a model trained to write the form was not better on dev:
 * docs/demo-model.md).
 */
export const pickOne = <T>(rng: Rng, values: readonly T[]): T => values[rng.int(values.length)]!;

/** English number words, shared with the number reading of the copy constraint (src/constrain/number-words.ts). */
export { ONES, TENS } from "../constrain/number-words.ts";
/** English words for a whole number 0 to 9999 ("twenty-five", "three hundred and twelve"); else undefined. */
export function numberWords(n: number, hyphen = "-"): string | undefined {
  if (!Number.isInteger(n) || n < 0 || n > 9999) return undefined;
  if (n < 20) return ONES[n];
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? hyphen + ONES[n % 10] : "");
  if (n < 1000) {
    const rest = n % 100;
    return `${ONES[Math.floor(n / 100)]} hundred${rest ? ` and ${numberWords(rest, hyphen)}` : ""}`;
  }
  const rest = n % 1000;
  const tail =
    rest === 0 ? "" : rest < 100 ? ` and ${numberWords(rest, hyphen)}` : ` ${numberWords(rest, hyphen)}`;
  return `${ONES[Math.floor(n / 1000)]} thousand${tail}`;
}

/** A number as a person may type it: mostly digits, sometimes words (small whole numbers), or 1,234. */
export function numberText(n: number, rng: Rng, wordShare = 0.25): string {
  const words = numberWords(n, rng.next() < 0.7 ? "-" : " ");
  if (words !== undefined && n <= 100 && rng.next() < wordShare) return words;
  if (words !== undefined && n % 100 === 0 && n >= 100 && rng.next() < wordShare / 2) return words;
  if (Number.isInteger(n) && n >= 1000 && n < 1e6 && rng.next() < 0.15) return n.toLocaleString("en-US");
  return String(n);
}

/** One way to write an enum value (cities not listed are written as they are, or in lower case). */
export function enumText(value: string, rng: Rng): string {
  const forms = NAMES[value];
  if (forms) return pickOne(rng, forms);
  return rng.next() < 0.3 ? value.toLowerCase() : value;
}

const SHORT_MONTHS = MONTHS.map((m) => m.slice(0, 3));
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const ordinal = (d: number) =>
  `${d}${d % 10 === 1 && d !== 11 ? "st" : d % 10 === 2 && d !== 12 ? "nd" : d % 10 === 3 && d !== 13 ? "rd" : "th"}`;

/** A date written in one of the forms the calendar tools read (../dates.ts). */
export function dateText(iso: string, rng: Rng): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const month = cap(MONTHS[m - 1]!);
  const short = cap(SHORT_MONTHS[m - 1]!);
  const forms = [
    iso,
    iso,
    `${month} ${d}, ${y}`,
    `${month} ${ordinal(d)}, ${y}`,
    `${d} ${month} ${y}`,
    `${short} ${d} ${y}`,
    `${ordinal(d)} of ${month} ${y}`,
    // Numeric day/month only when the day cannot be a month, so the form is not ambiguous.
    d > 12 ? `${d}/${m}/${y}` : `${m}/${d}/${y}`,
  ];
  return pickOne(rng, forms);
}

/** A month written as a number or a name. */
export function monthText(month: number, rng: Rng): string {
  const r = rng.next();
  if (r < 0.4) return String(month);
  if (r < 0.8) return cap(MONTHS[month - 1]!);
  return r < 0.9 ? MONTHS[month - 1]! : cap(SHORT_MONTHS[month - 1]!);
}

/** A text quoted the ways people quote (double, single, curly quotes). */
export function quoted(text: string, rng: Rng): string {
  const r = rng.next();
  if (r < 0.6) return `"${text}"`;
  if (r < 0.85) return `'${text}'`;
  return `“${text}”`;
}
