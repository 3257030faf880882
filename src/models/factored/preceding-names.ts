/**
 * Another parameter's name written nearer before a span than this parameter's own: a value follows its name ("a
 * final value of $3000"), so the name written last before it claims it. Each parameter is read by the name words
 * no other parameter of its family has. features.ts x[48]; the weight is learnt (a second pass over the one-call
 * scorer), no word list. Read on both sides, or with this parameter's own name as a feature too, it cost items
 * (the next parameter's name after a value: "$2000, final value …"; DEVELOPMENT_PROBES).
 */

/** 1/distance of the nearest `others` name word before `start` where it is nearer than any `own` one; else 0. */
export function otherNameBefore(
  tokens: readonly { stem: string }[],
  own: ReadonlySet<string>,
  others: readonly ReadonlySet<string>[],
  start: number,
): number {
  const distance = (stems: ReadonlySet<string>): number => {
    for (let i = start - 1; i >= 0; i--) if (tokens[i]!.stem !== "" && stems.has(tokens[i]!.stem)) return start - i;
    return Infinity;
  };
  const mine = distance(own);
  const theirs = Math.min(Infinity, ...others.map(distance));
  return theirs < mine ? 1 / theirs : 0;
}
