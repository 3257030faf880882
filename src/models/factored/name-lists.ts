/**
 * Names listed, then values listed, in one order: "the lengths of its base and height as 6cm and 10cm" writes two
 * parameters' names joined (commas and learnt joiner words), then their values right after, in the same order. The
 * argument scorer reads each value by the name nearest to it ("height" beside "6cm") and crosses them; where the
 * names' list is followed by as many values, each parameter takes the value at its name's place in the list. Reads
 * where names and values stand and the learnt joiners only, no words of any language (DecideOptions.nameLists).
 */
import type { QToken } from "./text.ts";

/** A parameter holding one value: where that value starts in the question. */
export interface ListedSlot {
  start: number;
}

/** Most tokens between two listed names, or between the names' list and its first value, or two values. */
const GAP = 3;

/**
 * For each slot, the index of the slot whose value it takes (itself where nothing changes), or undefined when no
 * names' list reorders the values. `mention(i)` is the slot whose name token i writes (-1: none, or several).
 */
export function namedOrder(
  tokens: readonly QToken[],
  joiners: ReadonlySet<string>,
  slots: readonly ListedSlot[],
  mention: (i: number) => number,
): number[] | undefined {
  const joins = (from: number, to: number) =>
    to - from >= 1 && to - from <= GAP && tokens.slice(from, to).every((t) => t.text === "," || joiners.has(t.lower));
  for (let i = 0; i < tokens.length; i++) {
    const first = mention(i);
    if (first < 0) continue;
    // the names' run: each next name joined to the one before, every slot at most once
    const run = [first];
    let last = i;
    for (let j = i + 1; j < tokens.length && j - last - 1 <= GAP; j++) {
      const s = mention(j);
      if (s < 0) continue;
      if (!joins(last + 1, j) || run.includes(s)) break;
      run.push(s);
      last = j;
    }
    if (run.length < 2) continue;
    // their values, after the run, the first within GAP tokens of it and each next within GAP of the one before
    const starts = run.map((s) => slots[s]!.start).sort((a, b) => a - b);
    if (starts[0]! <= last || starts[0]! - last - 1 > GAP) continue;
    if (starts.some((at, k) => k > 0 && at - starts[k - 1]! - 1 > GAP)) continue;
    // no other slot's value among them
    if (slots.some((x, k) => !run.includes(k) && x.start > starts[0]! && x.start < starts.at(-1)!)) continue;
    const order = slots.map((_, k) => k);
    run.forEach((s, k) => (order[s] = slots.findIndex((x, m) => run.includes(m) && x.start === starts[k])));
    if (order.every((k, s) => k === s)) return undefined;
    return order;
  }
  return undefined;
}
