import type { FieldIndex } from "./bm25f.ts";
import type { WordVectors } from "./word-vectors.ts";
import { topKDocs } from "./top-k.ts";

/**
 * The schema fields whose words the soft match compares with the query's, by INDEX_FIELDS number: name, tool,
 * description, params (the whole-document features and the centroid), and paramText (parameter descriptions and
 * enums), which only its own per-field feature reads.
 */
const SOFT_FIELDS = [0, 1, 2, 3, 4];
/** The fields of the whole-document soft features (a bit mask over SOFT_FIELDS). */
const CORE_MASK = 0b01111;

/** The soft-match features `SoftIndex.features` gives per candidate: the whole document's, then per field. */
export const SOFT_FEATURES = [
  "soft_max",
  "soft_gap",
  "soft_centroid",
  "soft_name",
  "soft_tool",
  "soft_description",
  "soft_params",
  "soft_paramText",
] as const;

/**
 * Query–document soft matching over learnt word vectors (word-vectors.ts), for tools whose words are not the
 * query's: per document its distinct schema terms that have a vector, and their idf-weighted centroid. Built once
 * per FieldIndex from its postings (no second tokenization).
 */
export class SoftIndex {
  readonly dims: number;
  /** By index term number: its vector row, or -1. */
  private readonly termRow: Int32Array;
  /** Per document (compressed rows): its distinct terms' vector rows, idfs and fields (bit f: SOFT_FIELDS[f]). */
  private readonly docStarts: Int32Array;
  private readonly docRows: Int32Array;
  private readonly docIdfs: Float32Array;
  private readonly docMasks: Uint8Array;
  /** documents × dims, unit rows (zero for a document without any known term). */
  readonly centroids: Float32Array;
  /** Per vector row: the query (stamp) its cosines in `cache` (row × query terms) belong to. */
  private readonly stamps: Int32Array;
  private cache = new Float32Array(0);
  /** Scratch of the nearest-document scan: every document's score, and the documents in order. */
  private scan = new Float64Array(0);
  private all = new Int32Array(0);
  private stamp = 0;

  constructor(
    readonly index: FieldIndex,
    readonly vectors: WordVectors,
  ) {
    const { dims, rows, data } = vectors;
    this.dims = dims;
    const n = index.size;
    this.termRow = Int32Array.from(index.termList, (t) => rows.get(t) ?? -1);
    // (doc, term) pairs from the fields' postings, grouped by document, then made distinct per document.
    const counts = new Int32Array(n + 1);
    const pairs: number[] = [];
    for (let t = 0; t < index.termList.length; t++) {
      if (this.termRow[t] < 0) continue;
      SOFT_FIELDS.forEach((f, bit) => {
        const p = index.postings[f];
        for (let i = p.starts[t]; i < p.starts[t + 1]; i++) {
          pairs.push(p.docs[i], t, 1 << bit);
          counts[p.docs[i] + 1]++;
        }
      });
    }
    for (let d = 0; d < n; d++) counts[d + 1] += counts[d];
    const next = counts.slice(0, n);
    const grouped = new Int32Array(pairs.length / 3);
    const groupedBits = new Uint8Array(pairs.length / 3);
    for (let i = 0; i < pairs.length; i += 3) {
      const at = next[pairs[i]]++;
      grouped[at] = pairs[i + 1];
      groupedBits[at] = pairs[i + 2];
    }
    const starts = new Int32Array(n + 1);
    const out: number[] = [];
    const masks: number[] = [];
    const mark = new Int32Array(index.termList.length).fill(-1);
    const slot = new Int32Array(index.termList.length);
    for (let d = 0; d < n; d++) {
      for (let i = counts[d]; i < counts[d + 1]; i++) {
        const t = grouped[i];
        if (mark[t] === d) {
          masks[slot[t]] |= groupedBits[i];
          continue;
        }
        mark[t] = d;
        slot[t] = out.length;
        out.push(t);
        masks.push(groupedBits[i]);
      }
      starts[d + 1] = out.length;
    }
    this.docStarts = starts;
    this.docRows = Int32Array.from(out, (t) => this.termRow[t]);
    this.docIdfs = Float32Array.from(out, (t) => index.idfs[t]);
    this.docMasks = Uint8Array.from(masks);
    this.centroids = new Float32Array(n * dims);
    for (let d = 0; d < n; d++) {
      const c = this.centroids.subarray(d * dims, (d + 1) * dims);
      for (let i = starts[d]; i < starts[d + 1]; i++) {
        if ((this.docMasks[i] & CORE_MASK) === 0) continue;
        const r = this.docRows[i] * dims;
        const w = this.docIdfs[i];
        for (let j = 0; j < dims; j++) c[j] += w * data[r + j];
      }
      normalize(c);
    }
    this.stamps = new Int32Array(rows.size);
  }

  /** The query's distinct terms that have vectors: their rows and idfs. */
  private queryRows(terms: readonly string[]): { rows: number[]; idfs: number[]; numbers: number[] } {
    const rows: number[] = [];
    const idfs: number[] = [];
    const numbers: number[] = [];
    for (const term of new Set(terms)) {
      const t = this.index.terms.get(term);
      const r = t === undefined ? this.vectors.rows.get(term) : this.termRow[t];
      if (r === undefined || r < 0) continue;
      rows.push(r);
      // A word no document holds is rare: it weighs like the rarest document word.
      idfs.push(t === undefined ? Math.log(1 + (this.index.size + 0.5) / 0.5) : this.index.idfs[t]);
      numbers.push(t ?? -1);
    }
    return { rows, idfs, numbers };
  }

  /** The idf-weighted, unit-length centroid of the query's known terms (zero when it has none). */
  queryCentroid(terms: readonly string[]): Float32Array {
    const { rows, idfs } = this.queryRows(terms);
    const c = new Float32Array(this.dims);
    const { data } = this.vectors;
    rows.forEach((r, q) => {
      for (let j = 0; j < this.dims; j++) c[j] += idfs[q] * data[r * this.dims + j];
    });
    normalize(c);
    return c;
  }

  /**
   * The `k` documents whose centroids are closest to the query's (a candidate source beside BM25F); only those
   * with a positive cosine, and none for a query without a word the vectors know: a document no nearer than
   * chance is not a candidate, and a query in unknown words has no neighbours.
   */
  nearest(terms: readonly string[], k: number): { doc: number; score: number }[] {
    const q = this.queryCentroid(terms);
    if (q.every((v) => v === 0)) return [];
    const n = this.index.size;
    if (this.scan.length !== n)
      [this.scan, this.all] = [new Float64Array(n), Int32Array.from({ length: n }, (_, d) => d)];
    const { dims, centroids, scan: scores, all } = this;
    for (let d = 0; d < n; d++) scores[d] = dot(q, 0, centroids, d * dims, dims);
    return topKDocs(scores, all, n, k)
      .map((doc) => ({ doc, score: scores[doc] }))
      .filter(({ score }) => score > 0);
  }

  /**
   * Per candidate document, in SOFT_FEATURES order. soft_max: the idf-weighted mean over the query's known terms
   * of the best cosine with any of the document's terms (1 for a word the document says); soft_gap: the same over
   * the query terms the document does not say (0 when it says them all); soft_centroid: the cosine of the two
   * centroids; then soft_<field>: soft_max over one field's terms alone (0 for an empty field), so that a query
   * word close to the tool's name can weigh otherwise than one close to a parameter's description.
   */
  features(terms: readonly string[], docs: readonly number[]): Float64Array[] {
    const { rows, idfs } = this.queryRows(terms);
    const { data } = this.vectors;
    const { dims } = this;
    const q = this.queryCentroid(terms);
    const idfTotal = idfs.reduce((a, c) => a + c, 0) || 1;
    const width = rows.length;
    const fields = SOFT_FIELDS.length;
    // Each document row's cosines with every query term, computed once per query on the row's first meeting.
    if (this.cache.length < this.vectors.rows.size * width)
      this.cache = new Float32Array(this.vectors.rows.size * Math.max(width, 8));
    const stamp = ++this.stamp;
    const { cache, stamps, docRows, docStarts, docMasks } = this;
    const best = new Float64Array(width);
    const exact = new Uint8Array(width);
    // Per field × query term: the best cosine (1 for the word itself); `has`: the field holds a term with a vector.
    const bestIn = new Float64Array(fields * width);
    const has = new Uint8Array(fields);
    return docs.map((doc) => {
      best.fill(0);
      exact.fill(0);
      bestIn.fill(0);
      has.fill(0);
      for (let i = docStarts[doc]; i < docStarts[doc + 1]; i++) {
        const dr = docRows[i];
        const mask = docMasks[i];
        const at = dr * width;
        if (stamps[dr] !== stamp) {
          stamps[dr] = stamp;
          const b = dr * dims;
          for (let qi = 0; qi < width; qi++) cache[at + qi] = dot(data, rows[qi] * dims, data, b, dims);
        }
        const core = (mask & CORE_MASK) !== 0;
        for (let qi = 0; qi < width; qi++) {
          const s = dr === rows[qi] ? 1 : cache[at + qi];
          if (core) {
            if (dr === rows[qi]) exact[qi] = 1;
            if (cache[at + qi] > best[qi]) best[qi] = cache[at + qi];
          }
          for (let f = 0; f < fields; f++)
            if (mask & (1 << f) && s > bestIn[f * width + qi]) bestIn[f * width + qi] = s;
        }
        for (let f = 0; f < fields; f++) if (mask & (1 << f)) has[f] = 1;
      }
      let soft = 0;
      let gap = 0;
      let gapIdf = 0;
      for (let qi = 0; qi < width; qi++) {
        const b = exact[qi] ? 1 : best[qi];
        soft += idfs[qi] * b;
        if (!exact[qi]) {
          gap += idfs[qi] * b;
          gapIdf += idfs[qi];
        }
      }
      let centroid = 0;
      const at = doc * dims;
      for (let j = 0; j < dims; j++) centroid += q[j] * this.centroids[at + j];
      const row = new Float64Array(SOFT_FEATURES.length);
      row[0] = soft / idfTotal;
      row[1] = gapIdf === 0 ? 0 : gap / gapIdf;
      row[2] = centroid;
      for (let f = 0; f < fields; f++) {
        if (!has[f]) continue;
        let s = 0;
        for (let qi = 0; qi < width; qi++) s += idfs[qi] * bestIn[f * width + qi];
        row[3 + f] = s / idfTotal;
      }
      return row;
    });
  }
}

/** a[ai ..] · b[bi ..] over n numbers, four running sums (the nearest-document scan is the ranker's hot loop). */
function dot(a: Float32Array, ai: number, b: Float32Array, bi: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < n; j += 4) {
    s0 += a[ai + j] * b[bi + j];
    s1 += a[ai + j + 1] * b[bi + j + 1];
    s2 += a[ai + j + 2] * b[bi + j + 2];
    s3 += a[ai + j + 3] * b[bi + j + 3];
  }
  for (; j < n; j++) s0 += a[ai + j] * b[bi + j];
  return s0 + s1 + s2 + s3;
}

function normalize(c: Float32Array): void {
  let norm = 0;
  for (let j = 0; j < c.length; j++) norm += c[j] * c[j];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let j = 0; j < c.length; j++) c[j] /= norm;
}
