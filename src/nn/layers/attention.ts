import type { MatmulKernels } from "../kernels/api.ts";
import { rotate, type RopeTable } from "./rope.ts";

/**
 * Causal multi-head self-attention on head-major tensors [B, H, T, hd] (each head contiguous, so every
 * product is one kernel call). Kernel shapes per (batch, head), for the kernels engineer:
 *   forward   S = Q·Kᵀ       matmulABt(S, Q, K, T, hd, T)
 *             O = P·V        matmulAB (O, P, V, T, T, hd)
 *   backward  dP = dO·Vᵀ     matmulABt(dP, dO, V, T, hd, T)
 *             dV = Pᵀ·dO     matmulAtB(dV, P, dO, T, T, hd)
 *             dQ = dS·K      matmulAB (dQ, dS, K, T, T, hd)
 *             dK = dSᵀ·Q     matmulAtB(dK, dS, Q, T, T, hd)
 * The upper triangle is computed and then masked: twice the work of a triangular loop, but at kernel speed.
 */
export interface AttentionShape {
  B: number;
  H: number;
  T: number;
  hd: number;
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

/** Forward: fills P [B, H, T, T] (softmax probabilities, zero above the diagonal) and O [B, H, T, hd]. */
export function attentionForward(
  k: MatmulKernels,
  O: Float32Array,
  P: Float32Array,
  Q: Float32Array,
  K: Float32Array,
  V: Float32Array,
  s: AttentionShape,
): void {
  const { B, H, T, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  for (let bh = 0; bh < B * H; bh++) {
    const q = Q.subarray(bh * T * hd, (bh + 1) * T * hd);
    const kk = K.subarray(bh * T * hd, (bh + 1) * T * hd);
    const v = V.subarray(bh * T * hd, (bh + 1) * T * hd);
    const p = P.subarray(bh * T * T, (bh + 1) * T * T);
    k.matmulABt(p, q, kk, T, hd, T);
    for (let t = 0; t < T; t++) softmaxCausalRow(p, t * T, t, T, scale);
    k.matmulAB(O.subarray(bh * T * hd, (bh + 1) * T * hd), p, v, T, T, hd);
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

/** Backward: from dO, writes dQ, dK, dV (head-major). `scratch` holds T·T floats. */
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
  const { B, H, T, hd } = s;
  const scale = 1 / Math.sqrt(hd);
  const span = T * hd;
  for (let bh = 0; bh < B * H; bh++) {
    const sl = (a: Float32Array) => a.subarray(bh * span, (bh + 1) * span);
    const p = P.subarray(bh * T * T, (bh + 1) * T * T);
    const dS = scratch;
    k.matmulABt(dS, sl(dO), sl(V), T, hd, T);
    k.matmulAtB(sl(dV), p, sl(dO), T, T, hd);
    // softmax backward: dS = P ⊙ (dP − rowsum(P ⊙ dP)), times the score scale
    for (let t = 0; t < T; t++) {
      const o = t * T;
      let dot = 0;
      for (let j = 0; j <= t; j++) dot += p[o + j] * dS[o + j];
      for (let j = 0; j <= t; j++) dS[o + j] = p[o + j] * (dS[o + j] - dot) * scale;
      for (let j = t + 1; j < T; j++) dS[o + j] = 0;
    }
    k.matmulAB(sl(dQ), dS, sl(K), T, T, hd);
    k.matmulAtB(sl(dK), dS, sl(Q), T, T, hd);
  }
}
