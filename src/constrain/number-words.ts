/**
 * The numbers a text states, as digits ("1,234", "-3.5") or English words ("seventeen", "twenty-five",
 * "three hundred and twelve", "two thousand"): what the copy constraint (copy.ts) lets a number leaf take, and
 * what the demo's candidate builder reads back from the words its generator writes.
 */

import { ONES, TENS } from "../text/english-numbers.ts";

export { ONES, TENS };

const SMALL = new Map<string, number>(ONES.map((w, i) => [w, i]));
const TENS_BY_WORD = new Map<string, number>(TENS.flatMap((w, i) => (w ? [[w, 10 * i] as const] : [])));

/** Whole numbers written in words ("twenty-five", "three hundred and twelve", "two thousand"). */
export function numberWordsIn(text: string): number[] {
  const out: number[] = [];
  let total = 0;
  let current = 0;
  // What the last number word was: it decides whether the next one continues the number or starts another.
  let last: "none" | "small" | "tens" | "scale" | "and" = "none";
  const close = () => {
    if (last !== "none") out.push(total + current);
    [total, current, last] = [0, 0, "none"];
  };
  for (const raw of text.toLowerCase().split(/[\s-]+/)) {
    const w = raw.replace(/[^a-z]/g, "");
    if (SMALL.has(w)) {
      const n = SMALL.get(w)!;
      if (!(last === "none" || last === "scale" || last === "and" || (last === "tens" && n < 10))) close();
      current += n;
      last = "small";
    } else if (TENS_BY_WORD.has(w)) {
      if (!(last === "none" || last === "scale" || last === "and")) close();
      current += TENS_BY_WORD.get(w)!;
      last = "tens";
    } else if (w === "hundred" && (last === "small" || last === "tens")) {
      current *= 100;
      last = "scale";
    } else if (w === "thousand" && (last === "small" || last === "tens" || last === "scale")) {
      [total, current, last] = [total + current * 1000, 0, "scale"];
    } else if (w === "and" && last === "scale") {
      last = "and";
    } else {
      if (last === "and") last = "scale";
      close();
    }
    if (raw !== w && /[,.?!;:]$/.test(raw)) close();
  }
  close();
  return out;
}

/**
 * The numbers a text states: digits (with thousands commas, a sign, a fraction) and number words; no repeats.
 * A minus sign right after a letter, digit or closing bracket may be an operator ("10-3"), so that number also
 * counts without its sign; elsewhere it is the number's sign ("-40 degrees", "x = -5"), and only the signed
 * number is stated.
 */
export function numbersIn(
  text: string,
  /** The numbers the text writes in words (a language policy's; none: digits only). */
  inWords: (text: string) => number[] = numberWordsIn,
): number[] {
  const digits = digitMatches(text).flatMap(({ value, afterOperand }) =>
    value < 0 && afterOperand ? [value, -value] : [value],
  );
  return [...new Set([...digits, ...inWords(text)])].filter(Number.isFinite);
}

function digitNumbersIn(text: string): number[] {
  return digitMatches(text).map((m) => m.value);
}

/** The numbers written in digits, each with whether it directly follows an operand (a letter, digit or ")"). */
function digitMatches(text: string): { value: number; afterOperand: boolean }[] {
  // ".5" is a number, but not the ".349" of a range "23..349"
  const pattern = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?|(?<![\d.])-?\.\d+/g;
  return [...text.matchAll(pattern)].map((m) => ({
    value: Number(m[0].replace(/,/g, "")),
    afterOperand: /[\p{L}\p{N})\]]/u.test(text[m.index - 1] ?? ""),
  }));
}

/** How many times a text states each number, by absolute value ("6d6": 6 twice), digits and words alike. */
export function numberMentions(
  text: string,
  inWords: (text: string) => number[] = numberWordsIn,
): Map<number, number> {
  const counts = new Map<number, number>();
  for (const v of [...digitNumbersIn(text), ...inWords(text)])
    if (Number.isFinite(v)) counts.set(Math.abs(v), (counts.get(Math.abs(v)) ?? 0) + 1);
  return counts;
}

const MONTH_NAMES = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/**
 * The month numbers a text names ("feb 2028" names 2, "the 3rd of July" 7): full English names and their
 * three-letter abbreviations (and "sept"). What a month leaf (a number enum of exactly 1 to 12) may take
 * beside the numbers the text states.
 */
export function monthsIn(text: string): number[] {
  const out = new Set<number>();
  for (const raw of text.toLowerCase().split(/[^a-z]+/)) {
    if (raw.length < 3) continue;
    const i = MONTH_NAMES.findIndex(
      (m) => m === raw || (raw.length === 3 && m.startsWith(raw)) || (raw === "sept" && m === "september"),
    );
    if (i >= 0) out.add(i + 1);
  }
  return [...out];
}
