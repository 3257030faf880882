import type { MatmulKernels } from "../kernels/api.ts";

/**
 * RMSNorm over rows of width d: y = x / rms(x) · w, rms(x) = √(mean(x²) + eps).
 * The forward saves 1/rms per row for the backward.
 */
export function rmsnormForward(
  out: Float32Array,
  invRms: Float32Array,
  x: Float32Array,
  w: Float32Array,
  rows: number,
  d: number,
  eps: number,
): void {
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    let ss = 0;
    for (let i = 0; i < d; i++) ss += x[o + i] * x[o + i];
    const inv = 1 / Math.sqrt(ss / d + eps);
    invRms[r] = inv;
    for (let i = 0; i < d; i++) out[o + i] = x[o + i] * inv * w[i];
  }
}

/**
 * Backward of RMSNorm. With g = dy·w: dx = inv·(g − x·inv²·mean(g·x)); dw += Σ_rows dy·x·inv.
 * `dx` is *accumulated into* (the residual stream's gradient already sits there).
 */
export function rmsnormBackward(
  dx: Float32Array,
  dw: Float32Array,
  dy: Float32Array,
  x: Float32Array,
  w: Float32Array,
  invRms: Float32Array,
  rows: number,
  d: number,
): void {
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    const inv = invRms[r];
    let dot = 0;
    for (let i = 0; i < d; i++) {
      dot += dy[o + i] * w[i] * x[o + i];
      dw[i] += dy[o + i] * x[o + i] * inv;
    }
    const k = (dot / d) * inv * inv;
    for (let i = 0; i < d; i++) dx[o + i] += inv * (dy[o + i] * w[i] - x[o + i] * k);
  }
}

/** rmsnormForward through the fast kernels when they take these arrays, else the loop above. */
export function rmsnorm(
  k: MatmulKernels,
  out: Float32Array,
  invRms: Float32Array,
  x: Float32Array,
  w: Float32Array,
  rows: number,
  d: number,
  eps: number,
): void {
  if (!k.rmsnormForward?.(out, invRms, x, w, rows, d, eps)) rmsnormForward(out, invRms, x, w, rows, d, eps);
}

/** rmsnormBackward through the fast kernels when they take these arrays, else the loop above. */
export function rmsnormGrad(
  k: MatmulKernels,
  dx: Float32Array,
  dw: Float32Array,
  dy: Float32Array,
  x: Float32Array,
  w: Float32Array,
  invRms: Float32Array,
  rows: number,
  d: number,
): void {
  if (!k.rmsnormBackward?.(dx, dw, dy, x, w, invRms, rows, d))
    rmsnormBackward(dx, dw, dy, x, w, invRms, rows, d);
}
