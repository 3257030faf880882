import type { FieldIndex } from "./bm25f.ts";

/** The shorter of two terms must have at least this many letters to match the longer by prefix. */
const MIN_PREFIX = 5;
/** Related terms looked at per query term (the shortest first): a common stem has many longer relatives. */
const MAX_RELATED = 24;
/** Fields whose words a prefix match looks in (INDEX_FIELDS: name, tool, description, params, paramText). */
const PREFIX_FIELDS = [0, 1, 2, 3, 4];

/**
 * Matching by shared prefix, for words the stemmer leaves apart ("crypto" and "cryptocurr", "financ" and
 * "financi"): two terms are related when the shorter, of at least five letters, begins the longer. The index's
 * terms sorted once (built on first use per index), so a query term's longer relatives are one binary search away
 * and its shorter ones are its own prefixes.
 */
export class PrefixIndex {
  private readonly sorted: string[];
  private readonly numbers: Int32Array;
  /** Per document: the stamp of the query that marked it, and which query terms (bits) it matches by prefix. */
  private readonly stamps: Int32Array;
  private readonly masks: Int32Array;
  private stamp = 0;

  constructor(readonly index: FieldIndex) {
    const order = index.termList.map((_, t) => t).sort((a, b) => cmp(index.termList[a], index.termList[b]));
    this.sorted = order.map((t) => index.termList[t]);
    this.numbers = Int32Array.from(order);
    this.stamps = new Int32Array(index.size);
    this.masks = new Int32Array(index.size);
  }

  /** Index terms related to `term` by prefix (never the term itself), shorter ones first. */
  related(term: string): number[] {
    const out: number[] = [];
    const { terms } = this.index;
    for (let l = MIN_PREFIX; l < term.length; l++) {
      const t = terms.get(term.slice(0, l));
      if (t !== undefined) out.push(t);
    }
    if (term.length >= MIN_PREFIX) {
      let lo = 0;
      let hi = this.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(this.sorted[mid], term) <= 0) lo = mid + 1;
        else hi = mid;
      }
      const longer: number[] = [];
      for (let i = lo; i < this.sorted.length && this.sorted[i].startsWith(term); i++)
        longer.push(this.numbers[i]);
      longer.sort((a, b) => this.index.termList[a].length - this.index.termList[b].length || a - b);
      out.push(...longer);
    }
    return out.slice(0, MAX_RELATED);
  }

  /**
   * Marks the documents that say a relative of each query term (the first 31 terms); `matches(doc)` then gives
   * the bits of the query terms the document matches by prefix. Valid until the next `mark`.
   */
  mark(queryTerms: readonly string[]): (doc: number) => number {
    const stamp = ++this.stamp;
    const { stamps, masks } = this;
    queryTerms.slice(0, 31).forEach((term, q) => {
      for (const t of this.related(term))
        for (const f of PREFIX_FIELDS) {
          const { starts, docs } = this.index.postings[f];
          for (let i = starts[t]; i < starts[t + 1]; i++) {
            const doc = docs[i];
            if (stamps[doc] !== stamp) {
              stamps[doc] = stamp;
              masks[doc] = 0;
            }
            masks[doc] |= 1 << q;
          }
        }
    });
    return (doc) => (stamps[doc] === stamp ? masks[doc] : 0);
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const prefixIndexes = new WeakMap<FieldIndex, PrefixIndex>();

/** The index's prefix matcher, built on first use. */
export function prefixIndexOf(index: FieldIndex): PrefixIndex {
  let p = prefixIndexes.get(index);
  if (p === undefined) prefixIndexes.set(index, (p = new PrefixIndex(index)));
  return p;
}
