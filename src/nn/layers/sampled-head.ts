import type { MatmulKernels } from "../kernels/api.ts";
import { crossEntropyInPlace } from "./cross-entropy.ts";

/**
 * A sampled softmax for some rows of a batch (`train/sampled-user-loss.ts` draws it): those rows' loss is the
 * cross-entropy over the candidates alone, each candidate's logit lowered by `logQ`, the log of its chance to be
 * in the sample (0 where it is there surely, as every target of the batch is).
 */
export interface SampledSoftmax {
  /** Per flat row: 1 where the row takes the sampled softmax (its target must be among `ids`). */
  rows: Uint8Array;
  /** The candidate ids, ascending. */
  ids: Int32Array;
  /** Per candidate, log of its chance to be drawn. */
  logQ: Float32Array;
}

/** The sampled rows' buffers: hidden states and their gradient [rows, d], logits [rows, S], head rows [S, d]. */
export interface SampledHeadBuffers {
  h: Float32Array;
  dh: Float32Array;
  logits: Float32Array;
  w: Float32Array;
  dw: Float32Array;
}

/** The index of `id` among the ascending `ids`, or −1. */
function indexOf(ids: Int32Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = ids[mid]!;
    if (x === id) return mid;
    if (x < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The sampled rows' loss: gathers their hidden states (`hF` rows `rows`) and the candidates' head rows, takes the
 * corrected cross-entropy scaled by `scale`, and with `lmGrad` adds the candidates' head gradient into it and
 * leaves the rows' hidden-state gradient in `buf.dh` [rows.length, d]. Returns the summed loss. The products go
 * through the kernels and the gathers and the scatter run in a fixed order: the same bits on any thread count.
 */
export function sampledHeadLoss(
  k: MatmulKernels,
  s: SampledSoftmax,
  lmHead: Float32Array,
  lmGrad: Float32Array | undefined,
  hF: Float32Array,
  rows: readonly number[],
  targets: Int32Array,
  d: number,
  scale: number,
  buf: SampledHeadBuffers,
): number {
  const M = rows.length;
  const S = s.ids.length;
  for (let j = 0; j < S; j++) buf.w.set(lmHead.subarray(s.ids[j]! * d, (s.ids[j]! + 1) * d), j * d);
  const at = new Int32Array(M);
  rows.forEach((r, i) => {
    buf.h.set(hF.subarray(r * d, (r + 1) * d), i * d);
    at[i] = indexOf(s.ids, targets[r]!);
    if (at[i]! < 0) throw new Error(`sampled softmax: target ${targets[r]} of row ${r} is not a candidate`);
  });
  const logits = buf.logits.subarray(0, M * S);
  k.matmulABt(logits, buf.h, buf.w, M, d, S);
  for (let i = 0; i < M; i++) {
    const o = i * S;
    for (let j = 0; j < S; j++) logits[o + j] -= s.logQ[j]!;
  }
  const total = k.crossEntropy?.(logits, at, M, S, scale) ?? crossEntropyInPlace(logits, at, M, S, scale);
  if (lmGrad) {
    // the logQ shift is a constant: the gradient of the corrected logits is that of the raw ones
    k.matmulAB(buf.dh, logits, buf.w, M, S, d);
    k.matmulAtB(buf.dw, logits, buf.h, S, M, d, false);
    for (let j = 0; j < S; j++) {
      const o = s.ids[j]! * d;
      const g = j * d;
      for (let c = 0; c < d; c++) lmGrad[o + c] += buf.dw[g + c]!;
    }
  }
  return total;
}
