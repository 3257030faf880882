/**
 * The k best of `count` touched documents (score desc, then catalog order) with a binary min-heap: O(n log k),
 * so a query that touches 47,000 documents does not sort them all.
 */
export function topKDocs(scores: Float64Array, touched: Int32Array, count: number, k: number): number[] {
  const heap: number[] = [];
  const worse = (a: number, c: number): boolean =>
    scores[a] < scores[c] || (scores[a] === scores[c] && a > c);
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  if (k <= 0) return [];
  for (let t = 0; t < count; t++) {
    const doc = touched[t];
    if (heap.length < k) {
      heap.push(doc);
      for (let i = heap.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i], heap[p])) break;
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      }
    } else if (worse(heap[0], doc)) {
      heap[0] = doc;
      down(0);
    }
  }
  return heap.sort((a, c) => (worse(a, c) ? 1 : worse(c, a) ? -1 : 0));
}
