import type { CatalogEntry } from "../catalog/catalog.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { DocumentExpander, type PreparedTerm, type TermAssociations } from "./term-associations.ts";
import { TOOL_FIELDS, toolFields, type ToolField } from "./tool-fields.ts";
import { topKDocs } from "./top-k.ts";
import { stemmer } from "stemmer";
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

/** Fields whose word order is kept (short texts where a two-word phrase says much: "air quality"). */
const SEQUENCE_FIELDS: ReadonlySet<string> = new Set<ToolField>(["name", "tool", "description"]);

export interface FieldIndexOptions {
  /** Tokenizer for documents and queries. Default: Porter stemming, English stopwords dropped. */
  tokenizer?: TokenizeOptions;
  /** Learnt term associations: builds the `expansion` field. Without them the field is empty. */
  associations?: TermAssociations;
  /** Query words kept per document in the expansion (default: the associations' `keep`, else 20). */
  expansionSize?: number;
}

/**
 * One field's postings over term numbers, in compressed rows: term t's documents are `docs[starts[t] ..
 * starts[t + 1])`, ascending (built in catalog order), so a candidate's tf is found by binary search.
 */
export interface FieldPostings {
  starts: Int32Array;
  docs: Int32Array;
  tf: Float32Array;
}

/** A growing list of (term, document, tf) triples for one field, in typed arrays. */
class PostingList {
  terms = new Int32Array(1024);
  docs = new Int32Array(1024);
  tf = new Float32Array(1024);
  length = 0;

  push(term: number, doc: number, tf: number): void {
    if (this.length === this.terms.length) {
      const grow = <T extends Int32Array | Float32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.terms = grow(this.terms);
      this.docs = grow(this.docs);
      this.tf = grow(this.tf);
    }
    this.terms[this.length] = term;
    this.docs[this.length] = doc;
    this.tf[this.length++] = tf;
  }

  /** Grouped by term (a counting sort, stable: each term's documents stay ascending). */
  rows(termCount: number): FieldPostings {
    const starts = new Int32Array(termCount + 1);
    for (let i = 0; i < this.length; i++) starts[this.terms[i] + 1]++;
    for (let t = 0; t < termCount; t++) starts[t + 1] += starts[t];
    const next = starts.slice(0, termCount);
    const docs = new Int32Array(this.length);
    const tf = new Float32Array(this.length);
    for (let i = 0; i < this.length; i++) {
      const at = next[this.terms[i]]++;
      docs[at] = this.docs[i];
      tf[at] = this.tf[i];
    }
    return { starts, docs, tf };
  }
}

/**
 * The tokenized fields of a catalog, built once; BM25F indexes of any parameters are derived from it without
 * tokenizing again (the bench tries many parameter sets), and the ranker reads per-field term frequencies of a
 * few candidates from it. Terms are numbered once and every per-document list is a typed array: the build makes
 * no Map or array per document, tokenizes each distinct field text once, and stems each distinct word once.
 */
export class FieldIndex {
  readonly ids: string[];
  readonly tokenizer: TokenizeOptions;
  /** Term → term number, over every field (the expansion's words included). */
  readonly terms = new Map<string, number>();
  /** Term number → term. */
  readonly termList: string[] = [];
  /** Per field: postings by term number. */
  readonly postings: FieldPostings[];
  /** Per field: the length (tokens) of each document, and the mean. */
  readonly lengths: Float64Array[];
  readonly averages: number[];
  /** By term number: the idf from the documents holding the term in any field (Lucene's non-negative form). */
  readonly idfs: Float64Array;
  /** Per short field (name, tool, params; undefined for the others): each document's distinct terms. */
  readonly distinct: (string[][] | undefined)[];

  /** Whether the expansion field was built (from term associations). */
  readonly expanded: boolean;
  /**
   * Each document's name, tool and description as term numbers in order (-1 between fields), in compressed rows:
   * document d's are `sequence[sequenceStarts[d] .. sequenceStarts[d + 1])` (the ranker's phrase matches).
   */
  readonly sequenceStarts: Int32Array;
  readonly sequence: Int32Array;

  constructor(entries: readonly CatalogEntry[], options: FieldIndexOptions = {}) {
    this.tokenizer = options.tokenizer ?? { stem: true, stopwords: ENGLISH_STOPWORDS };
    this.expanded = options.associations !== undefined;
    this.ids = entries.map((e) => e.id);
    const n = entries.length;
    const lists = INDEX_FIELDS.map(() => new PostingList());
    this.lengths = INDEX_FIELDS.map(() => new Float64Array(n));
    this.distinct = INDEX_FIELDS.map((field) =>
      SHORT_FIELDS.has(field) ? new Array<string[]>(n) : undefined,
    );
    const expansionF = INDEX_FIELDS.indexOf("expansion");
    const expander =
      options.associations === undefined ? undefined : DocumentExpander.for(options.associations);
    const keep = options.expansionSize ?? options.associations?.keep ?? 20;
    const termNumber = (term: string): number => {
      let t = this.terms.get(term);
      if (t === undefined) {
        this.terms.set(term, (t = this.termList.length));
        this.termList.push(term);
        grow(t);
      }
      return t;
    };
    // Per term: the documents holding it (df), and scratch for one document (which field/document last saw it).
    let df: Int32Array = new Int32Array(4096);
    let seenIn: Int32Array = new Int32Array(4096);
    let countIn: Int32Array = new Int32Array(4096);
    let countStamp: Int32Array = new Int32Array(4096);
    const grow = (t: number): void => {
      if (t < df.length) return;
      const wider = (a: Int32Array): Int32Array => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      [df, seenIn, countIn, countStamp] = [wider(df), wider(seenIn), wider(countIn), wider(countStamp)];
    };
    const textTerms = this.textTerms();
    const seen: number[] = [];
    // By term number: its prepared associations (null: none), looked up once per term rather than per document.
    const preparedOf: (PreparedTerm | null | undefined)[] = [];
    const prepared: PreparedTerm[] = [];
    const local: number[] = [];
    let stamp = 0;
    const sequenceStarts = new Int32Array(n + 1);
    let sequence = new Int32Array(1024);
    let sequenceLength = 0;
    const append = (tokens: Int32Array): void => {
      while (sequenceLength + tokens.length + 1 > sequence.length) {
        const wider = new Int32Array(sequence.length * 2);
        wider.set(sequence);
        sequence = wider;
      }
      sequence.set(tokens, sequenceLength);
      sequenceLength += tokens.length;
      sequence[sequenceLength++] = -1;
    };
    entries.forEach((entry, doc) => {
      const texts = toolFields(entry);
      seen.length = 0;
      const see = (t: number): void => {
        if (seenIn[t] === doc + 1) return;
        seenIn[t] = doc + 1;
        seen.push(t);
      };
      TOOL_FIELDS.forEach((field, f) => {
        const tokens = textTerms(texts[field], termNumber);
        this.lengths[f][doc] = tokens.length;
        if (SEQUENCE_FIELDS.has(field)) append(tokens);
        stamp++;
        local.length = 0;
        for (const t of tokens) {
          if (countStamp[t] !== stamp) {
            countStamp[t] = stamp;
            countIn[t] = 0;
            local.push(t);
          }
          countIn[t]++;
        }
        const distinct = this.distinct[f];
        if (distinct !== undefined) distinct[doc] = local.map((t) => this.termList[t]);
        for (const t of local) {
          lists[f].push(t, doc, countIn[t]);
          see(t);
        }
      });
      if (expander !== undefined) {
        // The expansion's "term frequencies" are association strengths (fractions); its length is their sum.
        prepared.length = 0;
        for (const t of seen) {
          let entry = preparedOf[t];
          if (entry === undefined) preparedOf[t] = entry = expander.prepared(this.termList[t]) ?? null;
          if (entry !== null) prepared.push(entry);
        }
        const { words, strengths } = expander.expandPrepared(prepared, keep);
        this.lengths[expansionF][doc] = strengths.reduce((a, c) => a + c, 0);
        words.forEach((word, i) => {
          const t = termNumber(word);
          lists[expansionF].push(t, doc, strengths[i]);
          see(t);
        });
      }
      for (const t of seen) df[t]++;
      sequenceStarts[doc + 1] = sequenceLength;
    });
    this.sequenceStarts = sequenceStarts;
    this.sequence = sequence.slice(0, sequenceLength);
    const termCount = this.termList.length;
    this.averages = this.lengths.map((l) => (n === 0 ? 0 : l.reduce((a, c) => a + c, 0) / n));
    this.postings = lists.map((list) => list.rows(termCount));
    this.idfs = new Float64Array(termCount);
    for (let t = 0; t < termCount; t++) this.idfs[t] = Math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5));
  }

  /**
   * Text → term numbers, tokenized once per distinct text (a tool's name and category repeat on each of its
   * APIs) and stemmed once per distinct word; the same terms `tokenize` gives.
   */
  private textTerms(): (text: string, termNumber: (term: string) => number) => Int32Array {
    const byText = new Map<string, Int32Array>();
    /** Unstemmed word → term number (one lookup per token; the stemmer runs once per distinct word). */
    const byWord = new Map<string, number>();
    const { stem, ...rest } = this.tokenizer;
    const split = { ...rest, stem: false };
    return (text, termNumber) => {
      let out = byText.get(text);
      if (out !== undefined) return out;
      const words = tokenize(text, split);
      out = new Int32Array(words.length);
      for (let i = 0; i < words.length; i++) {
        const word = words[i];
        let t = byWord.get(word);
        if (t === undefined) byWord.set(word, (t = termNumber(stem ? stemmer(word) : word)));
        out[i] = t;
      }
      byText.set(text, out);
      return out;
    };
  }

  get size(): number {
    return this.ids.length;
  }

  /** The query's terms as the index sees them (tokenized like the documents; repeats kept). */
  queryTerms(query: string): string[] {
    return tokenize(query, this.tokenizer);
  }

  /** A term's idf (0 for a term no document holds). */
  idf(term: string): number {
    const t = this.terms.get(term);
    return t === undefined ? 0 : this.idfs[t];
  }

  /** The term frequency of `term` in field `f` of `doc` (0 when absent). */
  tf(f: number, term: string, doc: number): number {
    const t = this.terms.get(term);
    return t === undefined ? 0 : this.tfOf(f, t, doc);
  }

  /** The term frequency of term number `t` in field `f` of `doc` (binary search; 0 when absent). */
  tfOf(f: number, t: number, doc: number): number {
    const { starts, docs, tf } = this.postings[f];
    let lo = starts[t];
    let hi = starts[t + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = docs[mid];
      if (d === doc) return tf[mid];
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
  /** Per term number: the documents holding it and each one's precomputed score, in compressed rows. */
  private readonly starts: Int32Array;
  private readonly docs: Int32Array;
  private readonly weights: Float64Array;
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  constructor(entries: readonly CatalogEntry[] | FieldIndex, params: Bm25fParams = BM25F_DEFAULTS) {
    checkParams(params);
    this.index = entries instanceof FieldIndex ? entries : new FieldIndex(entries);
    this.params = params;
    const { index } = this;
    const n = index.size;
    const termCount = index.termList.length;
    const fields = INDEX_FIELDS.map((field, f) => ({
      f,
      weight: params.weights[field],
      b: params.b[field],
      avg: index.averages[f],
      lengths: index.lengths[f],
      postings: index.postings[f],
    })).filter((x) => x.weight !== 0);
    const room = fields.reduce((a, x) => a + x.postings.docs.length, 0);
    const docs = new Int32Array(room);
    const weights = new Float64Array(room);
    const starts = new Int32Array(termCount + 1);
    const pseudo = new Float64Array(n);
    // A term's documents in first-touched order, not sorted: a search's scores and its top k (score, then catalog
    // order) do not depend on the order postings are added in.
    const touched = new Int32Array(n * Math.max(1, fields.length)); // a doc whose sum stays 0 may come again
    let at = 0;
    for (let t = 0; t < termCount; t++) {
      const idf = index.idfs[t];
      let count = 0;
      for (const { weight, b, avg, lengths, postings } of fields) {
        const end = postings.starts[t + 1];
        for (let i = postings.starts[t]; i < end; i++) {
          const doc = postings.docs[i];
          const norm = avg === 0 ? 1 : 1 - b + (b * lengths[doc]) / avg;
          if (pseudo[doc] === 0) touched[count++] = doc;
          pseudo[doc] += (weight * postings.tf[i]) / norm;
        }
      }
      for (let j = 0; j < count; j++) {
        const doc = touched[j];
        const tf = pseudo[doc];
        docs[at] = doc;
        weights[at++] = (idf * tf * (params.k1 + 1)) / (tf + params.k1);
        pseudo[doc] = 0;
      }
      starts[t + 1] = at;
    }
    this.starts = starts;
    this.docs = docs.slice(0, at);
    this.weights = weights.slice(0, at);
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
    const { starts, docs, weights } = this;
    for (const [term, times] of counts) {
      const t = this.index.terms.get(term);
      if (t === undefined) continue;
      const end = starts[t + 1];
      for (let i = starts[t]; i < end; i++) {
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
