import type { CatalogEntry } from "../catalog/catalog.ts";
import { documentText, type DocumentFormat } from "./documents.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { ENGLISH_STOPWORDS, tokenize, type TokenizeOptions } from "../text/terms.ts";
import { ToolgenError } from "../errors.ts";
import { topKDocs } from "./top-k.ts";

export interface Bm25Options {
  /**
   * Term-frequency saturation. Default 1.2. The defaults (k1 1.2, b 0.9, Porter stemming, English stopwords)
   * were chosen on the train parts (seed-1 80/20 splits) of the shared StableToolBench and MetaTool queries;
   * textbook BM25 is b 0.75 without stemming or stopwords. Dropping stopwords mattered most: query boilerplate
   * ("I want", "can you", "please") otherwise matches documents at random.
   */
  k1?: number;
  /** Length normalisation, 0 (none) … 1 (full). Default 0.9. */
  b?: number;
  /** The indexed text per entry. Default: ToolGen's eval document (`toolgenDocument`, documents.ts). */
  document?: DocumentFormat;
  /** Tokenizer options for documents and queries. Default: Porter stemming, English stopwords dropped. */
  tokenizer?: TokenizeOptions;
}

interface Posting {
  docs: Int32Array;
  /** Precomputed BM25 contribution of the term to each document (idf × saturated tf). */
  weights: Float64Array;
}

/**
 * Okapi BM25 over an inverted index with Lucene's non-negative idf, log(1 + (N − n + 0.5)/(n + 0.5)).
 * Scores are deterministic; ties rank in catalog order. Repeated query words count repeatedly.
 */
export class Bm25Retriever implements Retriever {
  readonly name = "bm25";
  readonly k1: number;
  readonly b: number;
  private readonly ids: string[];
  private readonly postings = new Map<string, Posting>();
  readonly tokenizer: TokenizeOptions;
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  constructor(entries: readonly CatalogEntry[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.9;
    if (!(this.k1 >= 0) || !(this.b >= 0 && this.b <= 1)) {
      throw new ToolgenError(
        "invalid_option",
        `BM25 needs k1 ≥ 0 and 0 ≤ b ≤ 1 (got k1=${this.k1}, b=${this.b})`,
      );
    }
    this.tokenizer = options.tokenizer ?? { stem: true, stopwords: ENGLISH_STOPWORDS };
    this.ids = entries.map((e) => e.id);
    const n = entries.length;
    const lengths = new Float64Array(n);
    const termDocs = new Map<string, number[]>(); // term → [doc, tf, doc, tf, ...]
    entries.forEach((entry, doc) => {
      const tokens = tokenize(documentText(entry, options.document), this.tokenizer);
      lengths[doc] = tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, count] of tf) {
        let list = termDocs.get(term);
        if (list === undefined) termDocs.set(term, (list = []));
        list.push(doc, count);
      }
    });
    const avgLength = n === 0 ? 0 : lengths.reduce((a, c) => a + c, 0) / n;
    for (const [term, list] of termDocs) {
      const df = list.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const docs = new Int32Array(df);
      const weights = new Float64Array(df);
      for (let i = 0; i < df; i++) {
        const doc = list[2 * i];
        const tf = list[2 * i + 1];
        const norm = avgLength === 0 ? 1 : 1 - this.b + (this.b * lengths[doc]) / avgLength;
        docs[i] = doc;
        weights[i] = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * norm);
      }
      this.postings.set(term, { docs, weights });
    }
    this.scores = new Float64Array(n);
    this.touched = new Int32Array(n);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The number of distinct indexed terms. */
  get vocabularySize(): number {
    return this.postings.size;
  }

  /**
   * Synchronous search (the index is in memory); `search` wraps it for the Retriever contract. Term at a time
   * over the postings of the query's distinct terms (a repeated word counts as often as it appears).
   * MaxScore-style pruning was tried and dropped: with ToolGen's documents even "the" can add ~1.6 to a short
   * document, so the bound rarely excludes anything and the bookkeeping cost more than it saved.
   */
  searchSync(query: string, options: SearchOptions = {}): RetrievalHit[] {
    const k = Math.max(0, Math.floor(options.k ?? 10));
    const { scores, touched } = this;
    const counts = new Map<Posting, number>();
    for (const term of tokenize(query, this.tokenizer)) {
      const posting = this.postings.get(term);
      if (posting !== undefined) counts.set(posting, (counts.get(posting) ?? 0) + 1);
    }
    let count = 0;
    for (const [{ docs, weights }, times] of counts) {
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc] += weights[i] * times;
      }
    }
    const best = k === 0 ? [] : topKDocs(scores, touched, count, k);
    const hits = best.map((doc) => ({ id: this.ids[doc], score: scores[doc] }));
    for (let t = 0; t < count; t++) scores[touched[t]] = 0;
    return hits;
  }

  async search(query: string, options?: SearchOptions): Promise<RetrievalHit[]> {
    return this.searchSync(query, options);
  }
}
