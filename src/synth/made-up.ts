import type { SynthRng } from "./rng.ts";

/**
 * Made-up words for string values, so that a model trained on the questions must copy a value from the question
 * rather than recall one it has seen (syllables written by hand; no real names).
 */
const ONSETS = ["b", "br", "d", "dr", "f", "g", "k", "l", "m", "n", "p", "r", "s", "st", "t", "v", "z", "th"];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "o", "a", "e"];
const CODAS = ["", "", "n", "r", "l", "s", "x", "m", "nd", "rt"];

export function madeUpWord(rng: SynthRng, capital = rng.chance(0.5)): string {
  const syllables = 2 + rng.int(2);
  let word = "";
  for (let i = 0; i < syllables; i++)
    word += rng.pick(ONSETS) + rng.pick(VOWELS) + (i === syllables - 1 ? rng.pick(CODAS) : "");
  return capital ? word[0]!.toUpperCase() + word.slice(1) : word;
}

/** One to three made-up words ("Velmora", "drasin toke"). */
export function madeUpText(rng: SynthRng): string {
  const n = rng.chance(0.6) ? 1 : 2 + rng.int(2);
  const capital = rng.chance(0.5);
  return Array.from({ length: n }, () => madeUpWord(rng, capital)).join(" ");
}
