import { kernels } from "../kernels/index.ts";
import type { ParamSet } from "../params.ts";

export interface AdamWOptions {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

/** Most floats in one AdamW slice: long tensors (the embedding) are cut so the pool can share them. */
const SLICE = 1 << 16;

export const ADAMW_DEFAULTS: AdamWOptions = { beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };

/**
 * AdamW (decoupled weight decay, Loshchilov & Hutter) over the flat parameter buffer. Weight decay applies to
 * matrices only, not to the norm weights. `step` counts completed updates (the bias correction uses it), and
 * together with the moments it is the state a resumed run needs.
 */
export class AdamW {
  readonly m: ParamSet;
  readonly v: ParamSet;
  step = 0;
  /**
   * The running mean of the weights after the updates averaged so far (tail weight averaging, `TrainOptions.
   * averageLast`), and how many updates it holds; absent until the first averaged update. Kept here because a
   * resumed run needs it as much as the moments.
   */
  average?: ParamSet;
  averaged = 0;
  private readonly decay: Float32Array; // per-element decay factor mask: 1 for matrices, 0 for vectors
  private readonly slices: Int32Array; // (offset, length, decayed) of every tensor, long ones cut in pieces

  constructor(
    readonly params: ParamSet,
    readonly options: AdamWOptions = ADAMW_DEFAULTS,
  ) {
    this.m = params.like();
    this.v = params.like();
    this.decay = new Float32Array(params.flat.length);
    const slices: number[] = [];
    let o = 0;
    for (const t of params.tensors) {
      const decayed = t.shape.length >= 2 ? 1 : 0;
      if (decayed) this.decay.fill(1, o, o + t.data.length);
      for (let s = 0; s < t.data.length; s += SLICE)
        slices.push(o + s, Math.min(SLICE, t.data.length - s), decayed);
      o += t.data.length;
    }
    this.slices = Int32Array.from(slices);
  }

  /**
   * One update. `gradScale` (gradient clipping, gradNormScale): the gradients are read as g·gradScale, with the
   * bits that scaling them in place first gives; the fast kernels do it inside the update (grads then keep
   * their unscaled values), the other paths scale grads in place first. `zeroGrads`: grads are left all 0 (the
   * fast kernels clear each gradient as they read it, no pass of their own: the trainer's next backward adds
   * into them instead of clearing them first).
   */
  update(grads: ParamSet, lr: number, gradScale = 1, zeroGrads = false): void {
    const zeroed = this.apply(grads, lr, gradScale, zeroGrads);
    if (zeroGrads && !zeroed && !kernels().fillZero?.(grads.flat)) grads.flat.fill(0);
  }

  /** The update; true when the kernels also zeroed the gradients (asked with `zeroGrads`). */
  private apply(grads: ParamSet, lr: number, gradScale: number, zeroGrads: boolean): boolean {
    const { beta1, beta2, eps, weightDecay } = this.options;
    this.step++;
    const c1 = 1 / (1 - Math.pow(beta1, this.step));
    const c2 = 1 / (1 - Math.pow(beta2, this.step));
    const k = kernels();
    const all = { lr, beta1, beta2, eps, wd: lr * weightDecay, c1, c2, gradScale };
    const [p, g, m, v] = [this.params.flat, grads.flat, this.m.flat, this.v.flat];
    if (zeroGrads && k.adamwSlices?.(p, g, m, v, this.slices, { ...all, zeroGrads })) return true;
    if (k.adamwSlices?.(p, g, m, v, this.slices, all)) return false;
    if (gradScale !== 1) scaleGrads(g, gradScale);
    if (k.adamw) {
      // The fast kernels, one call per tensor (weight decay on matrices only). The tensors are views of the
      // same four buffers, so the kernels take all of them or (plain arrays) refuse the first one.
      let i = 0;
      for (const t of this.params.tensors) {
        const wd = t.shape.length >= 2 ? lr * weightDecay : 0;
        const ok = k.adamw(t.data, grads.get(t.name), this.m.get(t.name), this.v.get(t.name), {
          ...{ lr, beta1, beta2, eps, wd, c1, c2 },
        });
        if (!ok && i > 0) throw new Error(`AdamW: the fast kernels refused ${t.name} after updating others`);
        if (!ok) break;
        i++;
      }
      if (i === this.params.tensors.length) return false;
    }
    const wd = lr * weightDecay;
    for (let i = 0; i < p.length; i++) {
      const gi = g[i];
      m[i] = beta1 * m[i] + (1 - beta1) * gi;
      v[i] = beta2 * v[i] + (1 - beta2) * gi * gi;
      p[i] -= lr * ((m[i] * c1) / (Math.sqrt(v[i] * c2) + eps)) + wd * this.decay[i] * p[i];
    }
    return false;
  }
}

/** Adds the current weights to the optimizer's running mean of the weights (created at the first call). */
export function accumulateAverage(optimizer: AdamW): void {
  const p = optimizer.params.flat;
  optimizer.average ??= optimizer.params.like();
  const a = optimizer.average.flat;
  const n = ++optimizer.averaged;
  if (n === 1) a.set(p);
  else if (!kernels().averageInto?.(a, p, n)) for (let i = 0; i < p.length; i++) a[i] += (p[i] - a[i]) / n;
}

/** Scales the gradients so their global L2 norm is at most `maxNorm`; returns the norm before clipping. */
export function clipGradNorm(grads: ParamSet, maxNorm: number): number {
  const { norm, scale } = gradNormScale(grads, maxNorm);
  if (scale !== 1) scaleGrads(grads.flat, scale);
  return norm;
}

/**
 * The gradients' global L2 norm and the factor clipping to `maxNorm` multiplies them by (1: none), without
 * scaling them: AdamW.update(grads, lr, scale) applies it as it reads them (one pass over the gradients less).
 */
export function gradNormScale(grads: ParamSet, maxNorm: number): { norm: number; scale: number } {
  const g = grads.flat;
  // The kernels sum fixed slices in slice order (the same bits on any thread count); this loop in index order.
  let ss = kernels().sumSquares?.(g);
  if (ss === undefined) {
    ss = 0;
    for (let i = 0; i < g.length; i++) ss += g[i] * g[i];
  }
  const norm = Math.sqrt(ss);
  return { norm, scale: maxNorm > 0 && norm > maxNorm ? maxNorm / (norm + 1e-6) : 1 };
}

/** g ← g·k (f64 product rounded to f32, as the kernels' scale). */
function scaleGrads(g: Float32Array, k: number): void {
  if (!kernels().scale?.(g, k)) for (let i = 0; i < g.length; i++) g[i] *= k;
}

/**
 * Learning rate at `step` (0-based) of `total`: linear warm-up over the first `warmupFraction` of the steps
 * (3 % by default, as in the ToolGen paper), then cosine decay from `peak` to `peak·minRatio`.
 */
export function cosineLr(
  step: number,
  total: number,
  peak: number,
  warmupFraction = 0.03,
  minRatio = 0.1,
): number {
  const warmup = Math.max(1, Math.round(total * warmupFraction));
  if (step < warmup) return (peak * (step + 1)) / warmup;
  const progress = Math.min(1, (step - warmup) / Math.max(1, total - warmup));
  const floor = peak * minRatio;
  return floor + 0.5 * (peak - floor) * (1 + Math.cos(Math.PI * progress));
}
