import { symmetricEigen } from "./symmetric-eigen.ts";

/**
 * Word vectors learnt by the project (no pretrained model is reachable here): positive pointwise mutual information
 * of terms that occur in the same bag (a tool's document, a training query), reduced by a truncated
 * eigendecomposition (Levy & Goldberg's PPMI + SVD; the PPMI matrix is symmetric, so its eigenvectors are its
 * singular vectors up to sign). Words that share their company get close vectors, so "condo" can meet "house"
 * although no query of the house tool said it. Rows are unit length: a dot product is a cosine.
 */
export interface WordVectors {
  header: Record<string, unknown>;
  dims: number;
  /** Term (as the index tokenizes: stemmed, stopwords dropped) → row. */
  rows: Map<string, number>;
  /** words × dims, unit rows. */
  data: Float32Array;
}

export interface LearnWordVectorsOptions {
  dims: number;
  /** A term must occur in at least this many bags. */
  minCount: number;
  /** Context-distribution smoothing (the context counts are raised to this power; 0.75 in word2vec). */
  smoothing: number;
  /** The eigenvalues' power in the vectors (0: the eigenvectors alone; 0.5 the symmetric split of SVD). */
  eigenPower: number;
  /** Subspace iterations of the randomized eigendecomposition. */
  iterations: number;
  /** A seeded uniform [0, 1) source for the starting subspace. */
  rand: () => number;
}

/** One bag of terms with its weight (a query of a tool with many queries may count less). */
export interface TermBag {
  terms: readonly string[];
  weight: number;
}

/** A bag's distinct terms are all each other's contexts (queries and descriptions are short). */
export function learnWordVectors(
  bags: readonly TermBag[],
  o: LearnWordVectorsOptions,
  header: Record<string, unknown> = {},
): WordVectors {
  const df = new Map<string, number>();
  for (const bag of bags) for (const t of new Set(bag.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const words = [...df]
    .filter(([, c]) => c >= o.minCount)
    .map(([t]) => t)
    .sort();
  const rows = new Map(words.map((w, i) => [w, i]));
  const v = words.length;
  // Co-occurrence counts, keyed i * v + j (i < j), then both halves.
  const pairs = new Map<number, number>();
  const marginal = new Float64Array(v);
  for (const bag of bags) {
    const ids = [...new Set(bag.terms)]
      .map((t) => rows.get(t))
      .filter((i): i is number => i !== undefined)
      .sort((a, b) => a - b);
    for (let a = 0; a < ids.length; a++)
      for (let b = a + 1; b < ids.length; b++) {
        const key = ids[a] * v + ids[b];
        pairs.set(key, (pairs.get(key) ?? 0) + bag.weight);
        marginal[ids[a]] += bag.weight;
        marginal[ids[b]] += bag.weight;
      }
  }
  let total = 0;
  for (let i = 0; i < v; i++) total += marginal[i];
  const smoothed = Float64Array.from(marginal, (m) => m ** o.smoothing);
  const smoothedTotal = smoothed.reduce((a, c) => a + c, 0) || 1;
  // PPMI(i, j) = max(0, log(P(i, j) / (P(i) P_α(j)))), made symmetric by averaging the two context directions.
  const entries: [number, number, number][] = [];
  for (const [key, count] of pairs) {
    const i = Math.floor(key / v);
    const j = key - i * v;
    const joint = (2 * count) / total;
    const pmi =
      (Math.log(joint / ((marginal[i] / total) * (smoothed[j] / smoothedTotal))) +
        Math.log(joint / ((marginal[j] / total) * (smoothed[i] / smoothedTotal)))) /
      2;
    if (pmi > 0) entries.push([i, j, pmi], [j, i, pmi]);
  }
  const matrix = csr(entries, v);
  const data = topEigenvectors(matrix, v, o);
  return { header, dims: o.dims, rows, data };
}

interface Csr {
  starts: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

function csr(entries: [number, number, number][], n: number): Csr {
  entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const starts = new Int32Array(n + 1);
  for (const [i] of entries) starts[i + 1]++;
  for (let i = 0; i < n; i++) starts[i + 1] += starts[i];
  return {
    starts,
    cols: Int32Array.from(entries, (e) => e[1]),
    values: Float64Array.from(entries, (e) => e[2]),
  };
}

/** out (n × k, row-major) = M (n × n sparse) · x (n × k). */
function multiply(m: Csr, x: Float64Array, n: number, k: number, out: Float64Array): void {
  out.fill(0);
  for (let i = 0; i < n; i++)
    for (let p = m.starts[i]; p < m.starts[i + 1]; p++) {
      const value = m.values[p];
      const from = m.cols[p] * k;
      const to = i * k;
      for (let c = 0; c < k; c++) out[to + c] += value * x[from + c];
    }
}

/** Orthonormal columns (modified Gram–Schmidt); a column that vanishes is left zero. */
function orthonormalize(x: Float64Array, n: number, k: number): void {
  for (let c = 0; c < k; c++) {
    for (let p = 0; p < c; p++) {
      let d = 0;
      for (let i = 0; i < n; i++) d += x[i * k + c] * x[i * k + p];
      for (let i = 0; i < n; i++) x[i * k + c] -= d * x[i * k + p];
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += x[i * k + c] ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < n; i++) x[i * k + c] = norm > 1e-12 ? x[i * k + c] / norm : 0;
  }
}

/**
 * The eigenvectors of the `dims` largest eigenvalues (randomized subspace iteration with 16 extra columns, then
 * the small projected problem solved exactly), scaled by eigenvalue^eigenPower, rows normalised to unit length.
 */
function topEigenvectors(m: Csr, n: number, o: LearnWordVectorsOptions): Float32Array {
  const k = Math.min(n, o.dims + 16);
  let q = Float64Array.from({ length: n * k }, () => o.rand() * 2 - 1);
  let y = new Float64Array(n * k);
  orthonormalize(q, n, k);
  for (let it = 0; it < o.iterations; it++) {
    multiply(m, q, n, k, y);
    orthonormalize(y, n, k);
    [q, y] = [y, q];
  }
  multiply(m, q, n, k, y);
  // T = Qᵀ M Q (k × k, symmetric).
  const t = new Float64Array(k * k);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < k; a++) {
      const qa = q[i * k + a];
      if (qa === 0) continue;
      for (let b = 0; b < k; b++) t[a * k + b] += qa * y[i * k + b];
    }
  for (let a = 0; a < k; a++)
    for (let b = a + 1; b < k; b++) t[a * k + b] = t[b * k + a] = (t[a * k + b] + t[b * k + a]) / 2;
  const { values, vectors } = symmetricEigen(t, k);
  const order = [...values.keys()].sort((a, b) => values[b] - values[a]).slice(0, o.dims);
  const d = o.dims;
  const out = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let c = 0; c < order.length; c++) {
      const e = order[c];
      let s = 0;
      for (let a = 0; a < k; a++) s += q[i * k + a] * vectors[a * k + e];
      s *= Math.max(0, values[e]) ** o.eigenPower;
      out[i * d + c] = s;
      norm += s * s;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let c = 0; c < d; c++) out[i * d + c] /= norm;
  }
  return out;
}

/** The shipped form: words, and the vectors as signed bytes (×127) in base64 (a quarter of float text's size). */
export interface WordVectorsFile {
  header: Record<string, unknown>;
  dims: number;
  words: string[];
  int8: string;
}

export function wordVectorsFile(vectors: WordVectors): WordVectorsFile {
  const words = [...vectors.rows.keys()];
  const bytes = new Int8Array(vectors.data.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.round(vectors.data[i] * 127);
  return {
    header: vectors.header,
    dims: vectors.dims,
    words,
    int8: Buffer.from(bytes.buffer).toString("base64"),
  };
}

/** The file back as unit vectors (renormalised after the rounding). */
export function readWordVectors(file: WordVectorsFile): WordVectors {
  const bytes = new Int8Array(Buffer.from(file.int8, "base64"));
  const { dims } = file;
  const data = new Float32Array(bytes.length);
  for (let r = 0; r < file.words.length; r++) {
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += bytes[r * dims + c] ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < dims; c++) data[r * dims + c] = bytes[r * dims + c] / norm;
  }
  return { header: file.header, dims, rows: new Map(file.words.map((w, i) => [w, i])), data };
}
