import type { FieldIndex } from "./bm25f.ts";
import { tokenize } from "../text/terms.ts";

/** The features read from a tool's generated pseudo-queries (0 for an index with none attached). */
export const GENERATED_FEATURES = ["gen_bm25", "gen_cover", "gen_best"] as const;

const K1 = 1.2;
const B = 0.75;

/**
 * Document expansion by generation (issue 41; bench/doc-expansion-generate.ts writes the text): a few queries a
 * small engine language model wrote for each tool from its document alone, built once per catalog, so a tool no
 * query named gets query-like words and nothing runs a model at query time. Kept apart from the schema's fields
 * (and their idf), so the ranker learns how far to trust a machine's guess against the tool's own words.
 */
export class GeneratedQueries {
  /** Per document: term → tf over all its pseudo-queries, and each pseudo-query's terms. */
  private readonly tfs: Map<string, number>[];
  private readonly samples: Set<string>[][];
  private readonly lengths: Float64Array;
  private readonly average: number;
  private readonly df = new Map<string, number>();

  constructor(index: FieldIndex, generated: ReadonlyMap<string, readonly string[]>) {
    const n = index.size;
    this.tfs = new Array(n);
    this.samples = new Array(n);
    this.lengths = new Float64Array(n);
    let total = 0;
    index.ids.forEach((id, doc) => {
      const tf = new Map<string, number>();
      const samples = (generated.get(id) ?? []).map((text) => tokenize(text, index.tokenizer));
      for (const terms of samples) for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.tfs[doc] = tf;
      this.samples[doc] = samples.map((s) => new Set(s));
      this.lengths[doc] = samples.reduce((a, s) => a + s.length, 0);
      total += this.lengths[doc];
    });
    this.average = total / Math.max(1, n) || 1;
  }

  private idf(term: string): number {
    const df = this.df.get(term) ?? 0;
    const n = this.tfs.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * `gen_bm25`: BM25 over the pseudo-queries, divided by the query's total idf there; `gen_cover`: the share of
   * the query's weight (`weights`, the caller's idf-like weight per distinct term) the pseudo-queries say;
   * `gen_best`: that share for the single pseudo-query that says most of it.
   */
  features(query: readonly string[], weights: readonly number[], doc: number): [number, number, number] {
    const tf = this.tfs[doc];
    const weightTotal = weights.reduce((a, c) => a + c, 0) || 1;
    let bm25 = 0;
    let idfTotal = 0;
    let cover = 0;
    const norm = 1 - B + (B * this.lengths[doc]) / this.average;
    query.forEach((t, q) => {
      const idf = this.idf(t);
      idfTotal += idf;
      const f = tf.get(t) ?? 0;
      if (f === 0) return;
      bm25 += (idf * f * (K1 + 1)) / (f + K1 * norm);
      cover += weights[q];
    });
    let best = 0;
    for (const s of this.samples[doc]) {
      let said = 0;
      query.forEach((t, q) => {
        if (s.has(t)) said += weights[q];
      });
      best = Math.max(best, said);
    }
    return [bm25 / (idfTotal || 1), cover / weightTotal, best / weightTotal];
  }
}

/**
 * The generated queries attached to an index. A side table rather than an index field so that every index the
 * bench builds (per fold, per set) takes them without a new constructor argument through the pipeline, and an
 * index without them (the shipped default) gives 0 for these features.
 */
const attached = new WeakMap<FieldIndex, GeneratedQueries>();

export function attachGenerated(index: FieldIndex, generated: ReadonlyMap<string, readonly string[]>): void {
  attached.set(index, new GeneratedQueries(index, generated));
}

export function generatedOf(index: FieldIndex): GeneratedQueries | undefined {
  return attached.get(index);
}
