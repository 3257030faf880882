import { ROPE_CONVENTION } from "../config.ts";
import type { MatmulKernels } from "../kernels/api.ts";

/**
 * Rotary position embedding, Hugging Face's rotate-half convention (see `ROPE_CONVENTION` in config.ts):
 * inside a head, x[j] and x[j + half] rotate together by angle pos·θ^(−2j/headDim).
 */
export interface RopeTable {
  readonly convention: typeof ROPE_CONVENTION;
  readonly half: number;
  readonly cos: Float32Array; // [maxPositions, half]
  readonly sin: Float32Array;
}

export function ropeTable(maxPositions: number, headDim: number, theta: number): RopeTable {
  const half = headDim / 2;
  const cos = new Float32Array(maxPositions * half);
  const sin = new Float32Array(maxPositions * half);
  for (let p = 0; p < maxPositions; p++) {
    for (let j = 0; j < half; j++) {
      const angle = p * Math.pow(theta, (-2 * j) / headDim);
      cos[p * half + j] = Math.cos(angle);
      sin[p * half + j] = Math.sin(angle);
    }
  }
  return { convention: ROPE_CONVENTION, half, cos, sin };
}

/**
 * Rotates one head vector src[so .. so+headDim) into dst[do ..) for position `pos`.
 * `inverse` rotates by −angle: the backward of the rotation (its transpose) and its inverse.
 */
export function rotate(
  t: RopeTable,
  dst: Float32Array,
  dOff: number,
  src: Float32Array,
  sOff: number,
  pos: number,
  inverse: boolean,
): void {
  const half = t.half;
  const base = pos * half;
  const sign = inverse ? -1 : 1;
  for (let j = 0; j < half; j++) {
    const c = t.cos[base + j];
    const s = sign * t.sin[base + j];
    const x0 = src[sOff + j];
    const x1 = src[sOff + j + half];
    dst[dOff + j] = x0 * c - x1 * s;
    dst[dOff + j + half] = x1 * c + x0 * s;
  }
}

/**
 * RoPE in place on the first `rows` rows of x [rows, H·hd] (and of y when given: q and k in one call), each
 * head's columns rotated at the row's position (by −angle with `inverse`: the backward). The attention reads q
 * and k in these rows (layers/attention.ts attentionForwardRows), so the rotation needs no head-major copy.
 * Through the fast kernels when they take these arrays (the same bits), else this loop.
 */
export function rotateRows(
  k: MatmulKernels,
  t: RopeTable,
  positions: Int32Array,
  rows: number,
  H: number,
  inverse: boolean,
  x: Float32Array,
  y?: Float32Array,
): void {
  if (k.ropeRows?.(x, y, t, positions, rows, H, inverse)) return;
  const d = H * 2 * t.half;
  for (const a of y ? [x, y] : [x]) {
    for (let r = 0; r < rows; r++) {
      for (let h = 0; h < H; h++) {
        const o = r * d + h * 2 * t.half;
        rotate(t, a, o, a, o, positions[r]!, inverse);
      }
    }
  }
}
