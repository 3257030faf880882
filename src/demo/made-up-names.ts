import type { Rng } from "../nn/rng.ts";
import { pickOne } from "./surface.ts";

/**
 * Words no tool knows, built from syllables: names of places, people and things the off-topic questions ask
 * about. With only real names in the decline data, a small model learns those names, not that a question
 * about something outside its tools is declined whatever it names.
 */
const ONSETS = [
  "b",
  "d",
  "f",
  "g",
  "k",
  "l",
  "m",
  "n",
  "p",
  "r",
  "s",
  "t",
  "v",
  "z",
  "br",
  "gr",
  "st",
  "tr",
  "sh",
];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ou", "ia", "ea"];
const CODAS = ["", "", "", "n", "r", "l", "s", "th", "nd", "x"];

/** A made-up word of two or three syllables ("velora", "grandis"). */
export function madeUpWord(rng: Rng): string {
  const syllables = 2 + rng.int(2);
  let word = "";
  for (let i = 0; i < syllables; i++) {
    word += pickOne(rng, ONSETS) + pickOne(rng, VOWELS);
    if (i === syllables - 1 || rng.next() < 0.25) word += pickOne(rng, CODAS);
  }
  return word;
}

/** A made-up proper name, capitalised ("Velora"). */
export function madeUpName(rng: Rng): string {
  const w = madeUpWord(rng);
  return w[0]!.toUpperCase() + w.slice(1);
}
