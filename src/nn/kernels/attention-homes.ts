/**
 * Home ranges of an attention job (kernels/wasm.ts attentionHomes): home h takes items bounds[h]..bounds[h+1]−1.
 * `items` holds (at, pAt, L) triples in row order. Each (sequence, head) item costs its causal triangle, about
 * L·(L+1)/2 multiply-adds per head column, so the cuts fall where the running sum of that work crosses the h-th
 * share of the whole (an item goes to the home its middle falls in). A cut by rows gave a home of long
 * sequences more work than one of short ones; the items stay in row order, so each home still reads
 * contiguous rows. The split only chooses which thread computes an item: every item writes its own outputs in a
 * fixed order, so the bits do not depend on it.
 */
export function attentionWorkBounds(items: Int32Array, homes: number, out: number[]): number[] {
  const n = items.length / 3;
  let total = 0;
  for (let i = 0; i < n; i++) total += triangle(items[3 * i + 2]!);
  out.length = homes + 1;
  out[0] = 0;
  let i = 0;
  let done = 0;
  for (let h = 1; h < homes; h++) {
    const target = (total * h) / homes;
    while (i < n && done + triangle(items[3 * i + 2]!) / 2 < target) done += triangle(items[3 * i++ + 2]!);
    out[h] = i;
  }
  out[homes] = n;
  return out;
}

/** Multiply-adds of one causal product over L rows, per column. */
function triangle(L: number): number {
  return (L * (L + 1)) / 2;
}
