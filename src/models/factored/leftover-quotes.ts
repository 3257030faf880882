/**
 * A text the question quotes is written as a value ("the date of the 'Battle of Waterloo'", "the value provided is
 * 'plaintext-only'"), yet the argument scorer can rank it far down: a common word inside ("of"), or three words and
 * more, cost it much of its chance, and another span of the question takes the parameter. After the joint
 * assignment, a quoted text no parameter holds replaces a text parameter's unquoted value where its chance is at
 * least `share` of that value's, the largest share first, one at a time until none qualifies (decide.ts). Reads
 * quote marks and the scorer's chances only (DecideOptions.leftoverQuotes, false for the ablation).
 */

export interface QuoteSlot {
  /** The slot's chance of the unquoted value it holds. */
  own: number;
  /** Its chances of the quoted candidates free for it now, by candidate index. */
  quoted: readonly { at: number; chance: number }[];
}

/** The one replacement to make next: slot and quoted candidate with the largest share of the slot's own chance. */
export function bestQuote(slots: readonly QuoteSlot[], share: number): { slot: number; at: number } | undefined {
  let best: { slot: number; at: number; ratio: number } | undefined;
  slots.forEach((s, i) => {
    for (const q of s.quoted) {
      const ratio = q.chance / Math.max(s.own, 1e-12);
      if (ratio >= share && (!best || ratio > best.ratio)) best = { slot: i, at: q.at, ratio };
    }
  });
  return best && { slot: best.slot, at: best.at };
}
