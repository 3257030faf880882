/**
 * English number words, by value: what the question generator (synth) writes and what the copy constraint's
 * English policy (constrain/number-words.ts) reads back. One list, so the two cannot disagree.
 */

/** English words for 0 to 19, by value. */
export const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
] as const;

/** English words for the tens, by tens digit ("" below twenty). */
export const TENS = [
  "",
  "",
  "twenty",
  "thirty",
  "forty",
  "fifty",
  "sixty",
  "seventy",
  "eighty",
  "ninety",
] as const;

/** English words for a whole number 0 to 999 ("twenty-five", "three hundred and twelve"); else undefined. */
export function numberWords(n: number, hyphen = "-"): string | undefined {
  if (!Number.isInteger(n) || n < 0 || n > 999) return undefined;
  if (n < 20) return ONES[n];
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? hyphen + ONES[n % 10]! : "");
  const rest = n % 100;
  return `${ONES[Math.floor(n / 100)]!} hundred${rest ? ` and ${numberWords(rest, hyphen)!}` : ""}`;
}
