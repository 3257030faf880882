/**
 * The joint assignment (decide.ts assignLearned) fills parameters one by one, required ones first, each taking its
 * likeliest free value: a required parameter that is unsure may take the one value an optional parameter is sure
 * of ("lawsuits related to 'Patent' issues": the company's 0.17 against the case type's 0.93), leaving that one the
 * rest. After it, a value passes from one parameter to another, the first taking its likeliest other free value
 * (or none, where it is optional), when the product of the two chances grows more than `margin` times. Reads the
 * scorer's chances only (DecideOptions.valueExchanges, false for the ablation).
 */

export interface ExchangeSlot {
  required: boolean;
  /** One chance per candidate of the parameter. */
  probs: readonly number[];
  pNull: number;
  /** The candidate it holds; -1 for none. */
  at: number;
  /** true: it keeps its value and takes none of another's. */
  fixed: boolean;
}

export interface ExchangeWorld {
  /** The index among slot `to`'s candidates of slot `from`'s candidate `cand` (the same value at the same place); -1 where none. */
  sameAs: (from: number, cand: number, to: number) => number;
  /** May slot `slot` hold candidate `cand` while the others hold `at` (its own entry in `at` ignored)? */
  fits: (slot: number, cand: number, at: readonly number[]) => boolean;
}

const chance = (s: ExchangeSlot, at: number): number => (at < 0 ? s.pNull : (s.probs[at] ?? 0));

/** The candidates each slot holds after the exchanges (`at` of each slot where nothing passes). */
export function exchangeValues(slots: readonly ExchangeSlot[], world: ExchangeWorld, margin: number): number[] {
  const at = slots.map((s) => s.at);
  // each exchange grows the product of all chances by more than `margin`: a few rounds at most
  for (let round = 0; round < slots.length; round++) {
    let best: { gain: number; next: number[] } | undefined;
    slots.forEach((a, i) => {
      if (a.fixed || at[i]! < 0) return;
      slots.forEach((b, j) => {
        if (j === i || b.fixed) return;
        const cb = world.sameAs(i, at[i]!, j);
        if (cb < 0 || chance(b, cb) <= chance(b, at[j]!)) return;
        const next = [...at];
        next[j] = cb;
        next[i] = -1;
        if (!world.fits(j, cb, next)) return;
        // the giver's likeliest other free value, or none where it may go without
        let other = -1;
        a.probs.forEach((p, k) => {
          if (k !== at[i] && (other < 0 || p > a.probs[other]!) && world.fits(i, k, next)) other = k;
        });
        if (a.required ? other < 0 : other >= 0 && a.pNull >= a.probs[other]!) other = -1;
        if (a.required && other < 0) return;
        next[i] = other;
        const gain = (chance(b, cb) * chance(a, other)) / Math.max(chance(a, at[i]!) * chance(b, at[j]!), 1e-12);
        if (gain > margin && (!best || gain > best.gain)) best = { gain, next };
      });
    });
    if (!best) break;
    at.splice(0, at.length, ...best.next);
  }
  return at;
}
