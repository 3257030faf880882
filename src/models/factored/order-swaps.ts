/**
 * Two parameters of one function that want the same kind of value (their chances of each other's value close) are
 * read in the schema's order: the question usually states them in the order the function declares them ("a small
 * green bird in forest" for color, habitat; "a wall of 30 feet by 12 feet" for length, height). After the joint
 * assignment, two text values (or two numbers) are exchanged when the exchange, with the schema's order `prior` times
 * likelier, has the greater product of chances. Reads the schema's order and the question's order only
 * (DecideOptions.orderSwaps, false for the ablation).
 */

export interface SwapSlot {
  /** Position of the parameter in the schema. */
  index: number;
  /** Where its value starts in the question. */
  start: number;
  /** Its chance of its own value and of the other slot's, by the other slot's place in `slots`. */
  own: number;
  other: (j: number) => number;
}

/** Pairs (i, j) of slots to exchange, none twice; the best gain first. */
export function orderSwaps(slots: readonly SwapSlot[], prior: number): [number, number][] {
  const gains: { i: number; j: number; gain: number }[] = [];
  for (let i = 0; i < slots.length; i++)
    for (let j = i + 1; j < slots.length; j++) {
      const [a, b] = [slots[i]!, slots[j]!];
      const inOrder = (a.index < b.index) === (a.start < b.start);
      const now = a.own * b.own * (inOrder ? prior : 1);
      const swapped = a.other(j) * b.other(i) * (inOrder ? 1 : prior);
      if (swapped > now) gains.push({ i, j, gain: swapped / Math.max(now, 1e-12) });
    }
  gains.sort((x, y) => y.gain - x.gain);
  const done = new Set<number>();
  const out: [number, number][] = [];
  for (const g of gains) {
    if (done.has(g.i) || done.has(g.j)) continue;
    done.add(g.i);
    done.add(g.j);
    out.push([g.i, g.j]);
  }
  return out;
}
