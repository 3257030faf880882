/**
 * Another parameter's cue beside a value, read so that it names that parameter and not this one: the other
 * parameters' name words that are neither in this parameter's name nor in its description ("hotel" of a
 * hotel_chain is no cue against a location "where you want to check hotel availability"), each weighed by its
 * rarity in training questions ("of" of number_of_players names nothing). features.ts x[9] reads every other name
 * word at full weight; these two (before and after the span) are learnt on top of it (a second pass).
 */
import type { ParamInfo } from "./features.ts";

/** Name stems of the parameters `others` gives that this parameter's own name and description do not say. */
export function foreignNameStems(p: ParamInfo, others: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const s of others) if (!p.nameStems.has(s) && !p.descStems.has(s)) out.add(s);
  return out;
}

/**
 * Which parameter's name is written last before a span: this one's (`own`, 1/distance) or another's of the same
 * family (`other`, 1/distance), each parameter read by the name words no other of them has; 0 for the one farther
 * away (and both 0 when neither is written before it). A value follows its name ("a final value of $3000"); read
 * on both sides, the next parameter's name after a value claimed it ("$2000, final value …": tried, DEVELOPMENT_PROBES).
 */
export function nearestNameContrast(
  tokens: readonly { stem: string }[],
  own: ReadonlySet<string>,
  others: readonly ReadonlySet<string>[],
  start: number,
  end: number,
): { own: number; other: number } {
  const distance = (stems: ReadonlySet<string>): number => {
    let best = Infinity;
    tokens.forEach((t, i) => {
      if (i >= start || t.stem === "" || !stems.has(t.stem)) return;
      best = Math.min(best, start - i);
    });
    return best;
  };
  const mine = distance(own);
  const theirs = Math.min(Infinity, ...others.map(distance));
  if (mine < theirs) return { own: 1 / mine, other: 0 };
  if (theirs < mine) return { own: 0, other: 1 / theirs };
  return { own: 0, other: 0 };
}
