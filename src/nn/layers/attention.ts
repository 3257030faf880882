import type { MatmulCall, MatmulKernels } from "../kernels/api.ts";
import { rotate, type RopeTable } from "./rope.ts";

/**
 * Causal multi-head self-attention on head-major tensors [B, H, T, hd] (each head contiguous, so every
 * product is one kernel call). Kernel shapes per (batch, head) and query block of n ≤ 64 rows r0..r1−1
 * (the block sees keys 0..r1−1), for the kernels engineer:
 *   forward   S = Q·Kᵀ       matmulABt(S, Q, K, n, hd, r1)
 *             O = P·V        matmulAB (O, P, V, n, r1, hd)
 *   backward  dP = dO·Vᵀ     matmulABt(dP, dO, V, n, hd, r1)
 *             dV += Pᵀ·dO    matmulAtB(dV, P, dO, r1, n, hd, true)
 *             dQ = dS·K      matmulAB (dQ, dS, K, n, r1, hd)
 *             dK += dSᵀ·Q    matmulAtB(dK, dS, Q, r1, n, hd, true)
 */
export interface AttentionShape {
  B: number;
  H: number;
  T: number;
  hd: number;
  /**
   * Packed rows (several samples in one row): (start, length) pairs over the flat token index b·T + t, in
   * order, tiling every row; a query attends only to the keys of its own span (block-diagonal causal mask).
   * Absent: one span per row.
   */
  spans?: Int32Array;
}

/** One causal sequence: row b, tokens t0..t0+L−1 of it; its probabilities for head h start at p + h·span. */
export interface AttentionSequence {
  b: number;
  t0: number;
  L: number;
  p: number;
  blocks: CausalBlock[];
  span: number;
}

const blockCache = new Map<number, { blocks: CausalBlock[]; span: number }>();

function cachedBlocks(L: number): { blocks: CausalBlock[]; span: number } {
  let c = blockCache.get(L);
  if (!c) {
    c = causalBlocks(L);
    if (blockCache.size < 4096) blockCache.set(L, c);
  }
  return c;
}

/** The causal sequences of a shape, with where each one's probabilities go (P is their concatenation). */
export function attentionSequences(s: AttentionShape): { seqs: AttentionSequence[]; size: number } {
  const { B, H, T, spans } = s;
  const seqs: AttentionSequence[] = [];
  let p = 0;
  const add = (b: number, t0: number, L: number) => {
    const { blocks, span } = cachedBlocks(L);
    seqs.push({ b, t0, L, p, blocks, span });
    p += H * span;
  };
  if (!spans) {
    for (let b = 0; b < B; b++) add(b, 0, T);
    return { seqs, size: p };
  }
  if (spans.length % 2 !== 0) throw new Error("attention: spans must be (start, length) pairs");
  let next = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i]!;
    const L = spans[i + 1]!;
    const b = Math.floor(start / T);
    const t0 = start - b * T;
    if (start !== next || !(L > 0) || t0 + L > T)
      throw new Error(`attention: span ${i / 2} (${start}, ${L}) does not continue the tiling of the rows`);
    add(b, t0, L);
    next = start + L;
  }
  if (next !== B * T) throw new Error(`attention: the spans cover ${next} of ${B * T} tokens`);
  return { seqs, size: p };
}

/** [B·T, H·hd] rows → head-major [B, H, T, hd], rotating by RoPE at each row's position when `rope` is given. */
export function splitHeads(
  dst: Float32Array,
  src: Float32Array,
  s: AttentionShape,
  rope?: RopeTable,
  positions?: Int32Array,
  inverse = false,
): void {
  const { B, H, T, hd } = s;
  const d = H * hd;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const row = (b * T + t) * d;
      for (let h = 0; h < H; h++) {
        const o = ((b * H + h) * T + t) * hd;
        if (rope && positions) rotate(rope, dst, o, src, row + h * hd, positions[b * T + t], inverse);
        else for (let i = 0; i < hd; i++) dst[o + i] = src[row + h * hd + i];
      }
    }
  }
}

/** Head-major [B, H, T, hd] → rows [B·T, H·hd]; with `rope`, applies the inverse rotation (the backward of split). */
export function mergeHeads(
  dst: Float32Array,
  src: Float32Array,
  s: AttentionShape,
  rope?: RopeTable,
  positions?: Int32Array,
): void {
  const { B, H, T, hd } = s;
  const d = H * hd;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const row = (b * T + t) * d;
      for (let h = 0; h < H; h++) {
        const o = ((b * H + h) * T + t) * hd;
        if (rope && positions) rotate(rope, dst, row + h * hd, src, o, positions[b * T + t], true);
        else for (let i = 0; i < hd; i++) dst[row + h * hd + i] = src[o + i];
      }
    }
  }
}

/** splitHeads through the fast kernels when they take these arrays (the same bits), else the loop above. */
export function splitHeadsWith(
  k: MatmulKernels,
  dst: Float32Array,
  src: Float32Array,
  s: AttentionShape,
  rope?: RopeTable,
  positions?: Int32Array,
): void {
  if (!k.moveHeads?.(dst, src, s, rope, positions, false)) splitHeads(dst, src, s, rope, positions);
}

/** mergeHeads (RoPE rotated back) through the fast kernels when they take these arrays, else the loop above. */
export function mergeHeadsWith(
  k: MatmulKernels,
  dst: Float32Array,
  src: Float32Array,
  s: AttentionShape,
  rope?: RopeTable,
  positions?: Int32Array,
): void {
  if (!k.moveHeads?.(dst, src, s, rope, positions, true)) mergeHeads(dst, src, s, rope, positions);
}

/**
 * Causal attention only needs, for queries r0..r1−1, the keys 0..r1−1. Queries go in blocks of `QUERY_BLOCK`
 * rows; block i's probabilities are a [rows, r1] matrix, stored one after another per (batch, head). That
 * skips most of the upper triangle (compute and memory ≈ T²/2 + T·QUERY_BLOCK/2 instead of T²).
 */
export const QUERY_BLOCK = 64;

export interface CausalBlock {
  r0: number; // first query row
  r1: number; // one past the last query row (= number of keys it sees)
  offset: number; // where its [r1 − r0, r1] probabilities start inside one (batch, head)'s span
}

export function causalBlocks(T: number): { blocks: CausalBlock[]; span: number } {
  const blocks: CausalBlock[] = [];
  let offset = 0;
  for (let r0 = 0; r0 < T; r0 += QUERY_BLOCK) {
    const r1 = Math.min(T, r0 + QUERY_BLOCK);
    blocks.push({ r0, r1, offset });
    offset += (r1 - r0) * r1;
  }
  return { blocks, span: offset };
}

/** Floats of P for a shape: H · Σ span over its sequences (B·H·span without packing). */
export function attentionProbsSize(s: AttentionShape): number {
  return attentionSequences(s).size;
}

/**
 * The (sequence, head) items of a shape as (at, pAt, L) triples: the item's first row in Q, K, V, O (floats;
 * `rows`: in the rows [B·T, H·hd] rather than head-major), where its probabilities start, its length
 * (MatmulKernels.attentionForwardAll).
 */
export function attentionItems(seqs: AttentionSequence[], s: AttentionShape, rows = false): Int32Array {
  const { H, T, hd } = s;
  const items = new Int32Array(3 * H * seqs.length);
  let i = 0;
  for (const { b, t0, L, p, span } of seqs) {
    for (let h = 0; h < H; h++) {
      // head-major [B, H, T, hd], or the head's columns in the rows [B·T, H·hd]
      items[i++] = rows ? (b * T + t0) * H * hd + h * hd : ((b * H + h) * T + t0) * hd;
      items[i++] = p + h * span;
      items[i++] = L;
    }
  }
  return items;
}

/** Forward: fills P (block layout above; zero above the diagonal) and O [B, H, T, hd]. */
export function attentionForward(
  k: MatmulKernels,
  O: Float32Array,
  P: Float32Array,
  Q: Float32Array,
  K: Float32Array,
  V: Float32Array,
  s: AttentionShape,
): void {
  const { H, T, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  const { seqs } = attentionSequences(s);
  if (k.attentionForwardAll?.(O, P, Q, K, V, attentionItems(seqs, s), hd, scale)) return;
  for (const { b, t0, L, p: p0, blocks, span } of seqs) {
    for (let h = 0; h < H; h++) {
      const base = ((b * H + h) * T + t0) * hd;
      const pb = p0 + h * span;
      // one call per (sequence, head) in the fast kernels; false (nothing written): the products below
      if (k.attentionForward?.(O, P, Q, K, V, base, pb, L, hd, scale)) continue;
      for (const { r0, r1, offset } of blocks) {
        const rows = r1 - r0;
        const p = P.subarray(pb + offset, pb + offset + rows * r1);
        k.matmulABt(
          p,
          Q.subarray(base + r0 * hd, base + r1 * hd),
          K.subarray(base, base + r1 * hd),
          rows,
          hd,
          r1,
        );
        for (let i = 0; i < rows; i++) softmaxCausalRow(p, i * r1, r0 + i, r1, scale);
        k.matmulAB(
          O.subarray(base + r0 * hd, base + r1 * hd),
          p,
          V.subarray(base, base + r1 * hd),
          rows,
          r1,
          hd,
        );
      }
    }
  }
}

/** Scales row entries 0..last, softmaxes them in place and zeroes the rest of the row. */
export function softmaxCausalRow(
  p: Float32Array,
  o: number,
  last: number,
  width: number,
  scale: number,
): void {
  let max = -Infinity;
  for (let j = 0; j <= last; j++) {
    const v = p[o + j] * scale;
    p[o + j] = v;
    if (v > max) max = v;
  }
  let sum = 0;
  for (let j = 0; j <= last; j++) {
    const e = Math.exp(p[o + j] - max);
    p[o + j] = e;
    sum += e;
  }
  const inv = 1 / sum;
  for (let j = 0; j <= last; j++) p[o + j] *= inv;
  for (let j = last + 1; j < width; j++) p[o + j] = 0;
}

/** Backward: from dO, writes dQ, dK, dV (head-major). `scratch` holds QUERY_BLOCK·T floats. */
export function attentionBackward(
  k: MatmulKernels,
  dQ: Float32Array,
  dK: Float32Array,
  dV: Float32Array,
  dO: Float32Array,
  P: Float32Array,
  Q: Float32Array,
  K: Float32Array,
  V: Float32Array,
  scratch: Float32Array,
  s: AttentionShape,
): void {
  const { H, T, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  const { seqs } = attentionSequences(s);
  if (k.attentionBackwardAll?.(dQ, dK, dV, dO, P, Q, K, V, attentionItems(seqs, s), hd, scale)) return;
  for (const { b, t0, L, p: p0, blocks, span } of seqs) {
    for (let h = 0; h < H; h++) {
      const base = ((b * H + h) * T + t0) * hd;
      const pb = p0 + h * span;
      if (k.attentionBackward?.(dQ, dK, dV, dO, P, Q, K, V, scratch, base, pb, L, hd, scale)) continue;
      const keys = (a: Float32Array, r1: number) => a.subarray(base, base + r1 * hd);
      const queries = (a: Float32Array, r0: number, r1: number) => a.subarray(base + r0 * hd, base + r1 * hd);
      // every block adds into the key rows it sees
      dK.fill(0, base, base + L * hd);
      dV.fill(0, base, base + L * hd);
      for (const { r0, r1, offset } of blocks) {
        const rows = r1 - r0;
        const p = P.subarray(pb + offset, pb + offset + rows * r1);
        const dS = scratch.subarray(0, rows * r1);
        k.matmulABt(dS, queries(dO, r0, r1), keys(V, r1), rows, hd, r1);
        k.matmulAtB(keys(dV, r1), p, queries(dO, r0, r1), r1, rows, hd, true);
        // softmax backward: dS = P ⊙ (dP − rowsum(P ⊙ dP)), times the score scale
        for (let t = 0; t < rows; t++) {
          const o = t * r1;
          const last = r0 + t;
          let dot = 0;
          for (let j = 0; j <= last; j++) dot += p[o + j] * dS[o + j];
          for (let j = 0; j <= last; j++) dS[o + j] = p[o + j] * (dS[o + j] - dot) * scale;
          for (let j = last + 1; j < r1; j++) dS[o + j] = 0;
        }
        k.matmulAB(queries(dQ, r0, r1), dS, keys(K, r1), rows, r1, hd);
        k.matmulAtB(keys(dK, r1), dS, queries(Q, r0, r1), r1, rows, hd, true);
      }
    }
  }
}

/** The last shape's row-layout items, with a copy of what they were computed from (see rowItems). */
let lastRows: { s: AttentionShape; spans: Int32Array | undefined; items: Int32Array } | undefined;

/**
 * attentionItems(…, rows) of a shape, reused while the shape stays equal (a training step asks for them twice
 * per layer on one batch): compared by value, spans included, so a caller that rewrites its arrays in place
 * still gets fresh items.
 */
function rowItems(s: AttentionShape): Int32Array {
  const last = lastRows;
  if (
    last &&
    last.s.B === s.B &&
    last.s.T === s.T &&
    last.s.H === s.H &&
    last.s.hd === s.hd &&
    (last.spans === undefined
      ? s.spans === undefined
      : s.spans !== undefined &&
        s.spans.length === last.spans.length &&
        last.spans.every((v, i) => v === s.spans![i]))
  )
    return last.items;
  const items = attentionItems(attentionSequences(s).seqs, s, true);
  lastRows = { s: { B: s.B, H: s.H, T: s.T, hd: s.hd }, spans: s.spans?.slice(), items };
  return items;
}

/**
 * attentionForward on the rows [B·T, H·hd] themselves (Q, K, V, O; each head its hd columns): the fast kernels
 * read them with a row stride, so the model needs no head-major copies; kernels that cannot get them copied
 * into head-major order and back (splitHeads, mergeHeads). The same bits either way.
 */
export function attentionForwardRows(
  k: MatmulKernels,
  O: Float32Array,
  P: Float32Array,
  Q: Float32Array,
  K: Float32Array,
  V: Float32Array,
  s: AttentionShape,
): void {
  const { H, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  if (k.attentionForwardAll?.(O, P, Q, K, V, rowItems(s), hd, scale, H * hd)) return;
  const n = s.B * s.T * H * hd;
  const [q, kk, v, o] = [0, 1, 2, 3].map(() => new Float32Array(n));
  splitHeadsWith(k, q!, Q, s);
  splitHeadsWith(k, kk!, K, s);
  splitHeadsWith(k, v!, V, s);
  attentionForward(k, o!, P, q!, kk!, v!, s);
  mergeHeadsWith(k, O, o!, s);
}

/**
 * attentionBackward on the rows [B·T, H·hd] (all of dQ, dK, dV, dO, Q, K, V), as attentionForwardRows. With
 * `rope`, the kernels may also apply RoPE's backward to dQ and dK (rotateRows, inverse): returns whether they did.
 */
export function attentionBackwardRows(
  k: MatmulKernels,
  dQ: Float32Array,
  dK: Float32Array,
  dV: Float32Array,
  dO: Float32Array,
  P: Float32Array,
  Q: Float32Array,
  K: Float32Array,
  V: Float32Array,
  scratch: Float32Array,
  s: AttentionShape,
  rope?: { rope: { half: number; cos: Float32Array; sin: Float32Array }; positions: Int32Array },
): boolean {
  const { H, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  if (rope && k.attentionBackwardAll?.(dQ, dK, dV, dO, P, Q, K, V, rowItems(s), hd, scale, H * hd, rope))
    return true;
  if (k.attentionBackwardAll?.(dQ, dK, dV, dO, P, Q, K, V, rowItems(s), hd, scale, H * hd)) return false;
  const n = s.B * s.T * H * hd;
  const [dq, dk, dv, dout, q, kk, v] = [0, 1, 2, 3, 4, 5, 6].map(() => new Float32Array(n));
  splitHeadsWith(k, dout!, dO, s);
  splitHeadsWith(k, q!, Q, s);
  splitHeadsWith(k, kk!, K, s);
  splitHeadsWith(k, v!, V, s);
  attentionBackward(k, dq!, dk!, dv!, dout!, P, q!, kk!, v!, scratch, s);
  mergeHeadsWith(k, dQ, dq!, s);
  mergeHeadsWith(k, dK, dk!, s);
  mergeHeadsWith(k, dV, dv!, s);
  return false;
}

/**
 * attentionBackwardRows with RoPE's backward and the products `list` (which must neither read what the attention
 * writes nor write what it reads: a layer's weight gradients) in one pool job when the kernels can
 * (MatmulKernels.attentionBackwardWith): one hand-off less, and a thread done with its share of one helps with
 * the other. The same bits as attentionBackwardRows, then the products. Returns false, having computed nothing,
 * when the kernels cannot.
 */
export function attentionBackwardRowsWith(
  k: MatmulKernels,
  list: readonly MatmulCall[],
  dQ: Float32Array,
  dK: Float32Array,
  dV: Float32Array,
  dO: Float32Array,
  P: Float32Array,
  Q: Float32Array,
  K: Float32Array,
  V: Float32Array,
  s: AttentionShape,
  rope: { rope: { half: number; cos: Float32Array; sin: Float32Array }; positions: Int32Array },
): boolean {
  const { H, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  return !!k.attentionBackwardWith?.(list, dQ, dK, dV, dO, P, Q, K, V, rowItems(s), hd, scale, H * hd, rope);
}
