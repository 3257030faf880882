import { NAME_JOINS } from "./english.ts";
import { madeUpWord } from "./made-up.ts";
import type { SynthRng } from "./rng.ts";

/**
 * A made-up or pooled string value reshaped as the names people write often are: several words ("Velmora
 * Drasin Toke"), two joined by a small word ("Velmora of Drasin"), or a word and a number ("Velmora 2"). Synth's
 * own values are mostly one word, so a model trained on them alone learns that a value is one word; shaped
 * values keep it from that. The added words follow the value's capitalisation; nothing of the schema is assumed
 * beyond it being free text (the caller checks the result against the schema).
 */
export function shapedValue(value: string, rng: SynthRng): string {
  const capital = /^\p{Lu}/u.test(value);
  const word = () => madeUpWord(rng, capital);
  const r = rng.next();
  if (r < 0.45) return rng.chance(0.6) ? `${value} ${word()}` : `${value} ${word()} ${word()}`;
  if (r < 0.65) return `${value} ${rng.pick(NAME_JOINS)} ${word()}`;
  if (r < 0.85) return `${word()} ${value}`;
  return `${value} ${1 + rng.int(rng.chance(0.7) ? 9 : 99)}`;
}
