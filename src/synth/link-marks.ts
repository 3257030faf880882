import { JOINERS, LINK_ASKS, LINK_LEADS, LINK_MARKS, LINK_WORDS } from "./english.ts";
import type { SynthRng } from "./rng.ts";

/** A marked link: a lead, a link word, a mark, perhaps an ask (", and finally, can you "; ". Also; "). */
export function markedLink(rng: SynthRng): string {
  const lead = rng.pick(LINK_LEADS);
  const word = rng.pick(LINK_WORDS);
  const opened = lead === ". " ? word[0]!.toUpperCase() + word.slice(1) : word;
  return `${lead}${opened}${rng.pick(LINK_MARKS)}${rng.pick(LINK_ASKS)}`;
}

/**
 * A marked link opening a one-call question ("Finally, ", "Also; "): capitalised, no lead and no ask, as the
 * request's own phrase may open with one ("can you …").
 */
export function linkOpening(rng: SynthRng): string {
  const word = rng.pick(LINK_WORDS);
  return `${word[0]!.toUpperCase()}${word.slice(1)}${rng.pick(LINK_MARKS)}`;
}

/**
 * The text joining two requests: with chance `share` a marked link, else one of `plain` (JOINERS, AGAIN). At
 * share 0 no draw is made beyond the plain pick, so the questions stay as before the option.
 */
export function requestJoiner(rng: SynthRng, share: number, plain: readonly string[] = JOINERS): string {
  if (share > 0 && rng.chance(share)) return markedLink(rng);
  return rng.pick(plain);
}
