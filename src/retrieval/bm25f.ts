import type { CatalogEntry } from "../catalog/catalog.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { expandDocument, type TermAssociations } from "./term-associations.ts";
import { TOOL_FIELDS, toolFields, type ToolField } from "./tool-fields.ts";
import { topKDocs } from "./top-k.ts";
import { ENGLISH_STOPWORDS, tokenize, type TokenizeOptions } from "../text/terms.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The indexed fields: the schema's (tool-fields.ts) and `expansion`, the query words learnt term associations
 * predict for the document (term-associations.ts; empty when the index is built without them).
 */
export const INDEX_FIELDS = [...TOOL_FIELDS, "expansion"] as const;
export type IndexField = (typeof INDEX_FIELDS)[number];

/** BM25F's parameters: one saturation k1, and per field a weight and a length normalisation b. */
export interface Bm25fParams {
  k1: number;
  weights: Record<IndexField, number>;
  b: Record<IndexField, number>;
}

/**
 * The defaults, chosen on dev only (bench/lib/tool-disjoint.ts: the best of a seeded search of 48 by mean dev
 * NDCG@5 over the MetaTool dev tools and the StableToolBench G1 dev tools; bench/results/retrieval.json lists
 * every configuration tried). The API's name weighs most: queries say what a tool does in its name's words.
 */
export const BM25F_DEFAULTS: Bm25fParams = {
  k1: 2,
  weights: { name: 6, tool: 1.5, description: 1, params: 0.5, paramText: 0.6, response: 0.1, expansion: 0 },
  b: { name: 1, tool: 0.2, description: 0.6, params: 0.75, paramText: 0.4, response: 0.75, expansion: 0.5 },
};

/** Fields short enough to keep each document's distinct terms for (the ranker's name and parameter matches). */
const SHORT_FIELDS: ReadonlySet<string> = new Set<ToolField>(["name", "tool", "params"]);

export interface FieldIndexOptions {
  /** Tokenizer for documents and queries. Default: Porter stemming, English stopwords dropped. */
  tokenizer?: TokenizeOptions;
  /** Learnt term associations: builds the `expansion` field. Without them the field is empty. */
  associations?: TermAssociations;
  /** Query words kept per document in the expansion (default: the associations' `keep`, else 20). */
  expansionSize?: number;
}

interface FieldPostings {
  /** Ascending document numbers (built in catalog order), so a candidate's tf is found by binary search. */
  docs: Int32Array;
  tf: Float32Array;
}

/**
 * The tokenized fields of a catalog, built once; BM25F indexes of any parameters are derived from it without
 * tokenizing again (the bench tries many parameter sets), and the ranker reads per-field term frequencies of a
 * few candidates from it.
 */
export class FieldIndex {
  readonly ids: string[];
  readonly tokenizer: TokenizeOptions;
  /** Per field: term → postings. */
  readonly postings: Map<string, FieldPostings>[];
  /** Per field: the length (tokens) of each document, and the mean. */
  readonly lengths: Float64Array[];
  readonly averages: number[];
  /** Documents holding the term in any field, and the idf from it (Lucene's non-negative form). */
  readonly idf = new Map<string, number>();
  /** Per short field (name, tool, params; undefined for the others): each document's distinct terms. */
  readonly distinct: (string[][] | undefined)[];

  /** Whether the expansion field was built (from term associations). */
  readonly expanded: boolean;

  constructor(entries: readonly CatalogEntry[], options: FieldIndexOptions = {}) {
    this.tokenizer = options.tokenizer ?? { stem: true, stopwords: ENGLISH_STOPWORDS };
    this.expanded = options.associations !== undefined;
    this.ids = entries.map((e) => e.id);
    const n = entries.length;
    const lists = INDEX_FIELDS.map(() => new Map<string, number[]>());
    this.lengths = INDEX_FIELDS.map(() => new Float64Array(n));
    this.distinct = INDEX_FIELDS.map((field) =>
      SHORT_FIELDS.has(field) ? new Array<string[]>(n) : undefined,
    );
    const expansionF = INDEX_FIELDS.indexOf("expansion");
    const df = new Map<string, number>();
    entries.forEach((entry, doc) => {
      const texts = toolFields(entry);
      const seen = new Set<string>();
      const add = (f: number, tf: Map<string, number>): void => {
        for (const [term, count] of tf) {
          let list = lists[f].get(term);
          if (list === undefined) lists[f].set(term, (list = []));
          list.push(doc, count);
          seen.add(term);
        }
      };
      TOOL_FIELDS.forEach((field, f) => {
        const tokens = tokenize(texts[field], this.tokenizer);
        this.lengths[f][doc] = tokens.length;
        const tf = new Map<string, number>();
        for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
        const distinct = this.distinct[f];
        if (distinct !== undefined) distinct[doc] = [...tf.keys()];
        add(f, tf);
      });
      if (options.associations !== undefined) {
        // The expansion's "term frequencies" are association strengths (fractions); its length is their sum.
        const expansion = expandDocument(
          options.associations,
          [...seen],
          options.expansionSize ?? options.associations.keep ?? 20,
        );
        this.lengths[expansionF][doc] = [...expansion.values()].reduce((a, c) => a + c, 0);
        add(expansionF, expansion);
      }
      for (const term of seen) df.set(term, (df.get(term) ?? 0) + 1);
    });
    this.averages = this.lengths.map((l) => (n === 0 ? 0 : l.reduce((a, c) => a + c, 0) / n));
    this.postings = lists.map((byTerm) => {
      const out = new Map<string, FieldPostings>();
      for (const [term, list] of byTerm) {
        const docs = new Int32Array(list.length / 2);
        const tf = new Float32Array(list.length / 2);
        for (let i = 0; i < docs.length; i++) {
          docs[i] = list[2 * i];
          tf[i] = list[2 * i + 1];
        }
        out.set(term, { docs, tf });
      }
      return out;
    });
    for (const [term, count] of df) this.idf.set(term, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  }

  get size(): number {
    return this.ids.length;
  }

  /** The query's terms as the index sees them (tokenized like the documents; repeats kept). */
  queryTerms(query: string): string[] {
    return tokenize(query, this.tokenizer);
  }

  /** The term frequency of `term` in field `f` of `doc` (binary search; 0 when absent). */
  tf(f: number, term: string, doc: number): number {
    const posting = this.postings[f].get(term);
    if (posting === undefined) return 0;
    const { docs } = posting;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = docs[mid];
      if (d === doc) return posting.tf[mid];
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}

function checkParams(p: Bm25fParams): void {
  const bad = !(p.k1 >= 0) || INDEX_FIELDS.some((f) => !(p.weights[f] >= 0) || !(p.b[f] >= 0 && p.b[f] <= 1));
  if (bad)
    throw new ToolgenError(
      "invalid_option",
      "BM25F needs k1 ≥ 0, field weights ≥ 0 and 0 ≤ b ≤ 1 for every field " +
        `(${INDEX_FIELDS.join(", ")}), got ${JSON.stringify(p)}`,
    );
}

/**
 * BM25F (Robertson, Zaragoza & Taylor 2004): each field's term frequency is length-normalised with its own b,
 * weighted, and summed into one pseudo-frequency that saturates once with k1, so a word found in the name and in
 * the description is not counted as two independent pieces of evidence. idf is over whole documents. Postings
 * hold each (term, document)'s precomputed contribution, so a query costs what plain BM25 costs. Ties rank in
 * catalog order.
 */
export class Bm25fRetriever implements Retriever {
  readonly name = "bm25f";
  readonly index: FieldIndex;
  readonly params: Bm25fParams;
  private readonly combined = new Map<string, { docs: Int32Array; weights: Float64Array }>();
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  constructor(entries: readonly CatalogEntry[] | FieldIndex, params: Bm25fParams = BM25F_DEFAULTS) {
    checkParams(params);
    this.index = entries instanceof FieldIndex ? entries : new FieldIndex(entries);
    this.params = params;
    const { index } = this;
    const n = index.size;
    const pseudo = new Float64Array(n);
    const touched: number[] = [];
    for (const [term, idf] of index.idf) {
      INDEX_FIELDS.forEach((field, f) => {
        const weight = params.weights[field];
        const posting = index.postings[f].get(term);
        if (posting === undefined || weight === 0) return;
        const b = params.b[field];
        const avg = index.averages[f];
        for (let i = 0; i < posting.docs.length; i++) {
          const doc = posting.docs[i];
          const norm = avg === 0 ? 1 : 1 - b + (b * index.lengths[f][doc]) / avg;
          if (pseudo[doc] === 0) touched.push(doc);
          pseudo[doc] += (weight * posting.tf[i]) / norm;
        }
      });
      if (touched.length === 0) continue;
      touched.sort((a, c) => a - c);
      const docs = Int32Array.from(touched);
      const weights = new Float64Array(docs.length);
      docs.forEach((doc, i) => {
        const tf = pseudo[doc];
        weights[i] = (idf * tf * (params.k1 + 1)) / (tf + params.k1);
        pseudo[doc] = 0;
      });
      touched.length = 0;
      this.combined.set(term, { docs, weights });
    }
    this.scores = new Float64Array(n);
    this.touched = new Int32Array(n);
  }

  get size(): number {
    return this.index.size;
  }

  /** The best `k` documents as (document number, score), best first. */
  searchDocs(terms: readonly string[], k: number): { doc: number; score: number }[] {
    const { scores, touched } = this;
    const counts = new Map<string, number>();
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    let count = 0;
    for (const [term, times] of counts) {
      const posting = this.combined.get(term);
      if (posting === undefined) continue;
      const { docs, weights } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc] += weights[i] * times;
      }
    }
    const best = topKDocs(scores, touched, count, Math.max(0, Math.floor(k)));
    const hits = best.map((doc) => ({ doc, score: scores[doc] }));
    for (let t = 0; t < count; t++) scores[touched[t]] = 0;
    return hits;
  }

  searchSync(query: string, options: SearchOptions = {}): RetrievalHit[] {
    return this.searchDocs(this.index.queryTerms(query), options.k ?? 10).map(({ doc, score }) => ({
      id: this.index.ids[doc],
      score,
    }));
  }

  async search(query: string, options?: SearchOptions): Promise<RetrievalHit[]> {
    return this.searchSync(query, options);
  }
}
