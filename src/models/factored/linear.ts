/**
 * The factored caller's learning: linear scores trained by AdaGrad on a log loss, written here (no library).
 * `trainSoftmax`: groups of items (a parameter's candidates and "leave it out"), each item scored by the weight
 * block of its kind; the loss is -log of the chance the group's gold items get together. `trainLogistic`: one
 * yes/no per row.
 */
import { Rng } from "../../nn/rng.ts";

export interface SoftmaxItem {
  block: number;
  x: Float32Array;
}

export interface SoftmaxGroup {
  items: SoftmaxItem[];
  gold: number[];
}

export interface TrainOptions {
  epochs: number;
  lr: number;
  l2: number;
  seed: number;
  /** Start from these weights (one array per block), not from zeros. */
  init?: readonly (readonly number[])[];
  /** Only these feature indices learn; every other weight keeps its start (a second pass over features added later). */
  learn?: ReadonlySet<number>;
}

// a weight missing at the end (a model file from before a feature was added) counts as 0
export const dot = (w: ArrayLike<number>, x: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (w[i] ?? 0) * x[i]!;
  return s;
};

export function softmax(scores: number[]): number[] {
  const m = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

/** Fisher–Yates from the back, one draw per place: the epoch order both trainers use. */
function shuffleInPlace(order: number[], rng: Rng): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
}

/** Weight blocks `dims[b]` wide, trained on `groups`; returns them and the mean loss of the last epoch. */
export function trainSoftmax(
  groups: readonly SoftmaxGroup[],
  dims: readonly number[],
  o: TrainOptions,
): { weights: number[][]; loss: number } {
  const w = dims.map((d, b) => Float64Array.from({ length: d }, (_, i) => o.init?.[b]?.[i] ?? 0));
  const g2 = dims.map((d) => new Float64Array(d).fill(1e-8));
  const rng = new Rng(o.seed);
  const order = groups.map((_, i) => i);
  let loss = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffleInPlace(order, rng);
    loss = 0;
    for (const gi of order) {
      const g = groups[gi]!;
      const p = softmax(g.items.map((it) => dot(w[it.block]!, it.x)));
      const goldMass = g.gold.reduce((a, k) => a + p[k]!, 0);
      loss -= Math.log(Math.max(1e-12, goldMass));
      const gold = new Set(g.gold);
      g.items.forEach((it, k) => {
        // d(-log Σ_gold p)/ds_k = p_k - [k gold] · p_k / Σ_gold p
        const grad = p[k]! - (gold.has(k) ? p[k]! / Math.max(1e-12, goldMass) : 0);
        if (grad === 0) return;
        const wb = w[it.block]!;
        const gb = g2[it.block]!;
        for (let d = 0; d < it.x.length; d++) {
          const xd = it.x[d]!;
          if (xd === 0 || (o.learn !== undefined && !o.learn.has(d))) continue;
          const gd = grad * xd + o.l2 * wb[d]!;
          gb[d] += gd * gd;
          wb[d] -= (o.lr * gd) / Math.sqrt(gb[d]!);
        }
      });
    }
    loss /= Math.max(1, groups.length);
  }
  return { weights: w.map((b) => Array.from(b, (v) => Math.round(v * 1e5) / 1e5)), loss };
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
export { sigmoid };

/** One weight vector for yes/no rows (`y` 1 or 0), the two classes weighted alike. */
export function trainLogistic(
  rows: readonly { x: Float32Array; y: number }[],
  dim: number,
  o: TrainOptions,
): { weights: number[]; loss: number } {
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim).fill(1e-8);
  const pos = rows.filter((r) => r.y === 1).length;
  const weightOf = (y: number) => (y === 1 ? rows.length / (2 * Math.max(1, pos)) : rows.length / (2 * Math.max(1, rows.length - pos)));
  const rng = new Rng(o.seed);
  const order = rows.map((_, i) => i);
  let loss = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffleInPlace(order, rng);
    loss = 0;
    for (const ri of order) {
      const r = rows[ri]!;
      const p = sigmoid(dot(w, r.x));
      const cw = weightOf(r.y);
      loss -= cw * Math.log(Math.max(1e-12, r.y === 1 ? p : 1 - p));
      const grad = cw * (p - r.y);
      for (let d = 0; d < dim; d++) {
        const gd = grad * r.x[d]! + o.l2 * w[d]!;
        g2[d] += gd * gd;
        w[d] -= (o.lr * gd) / Math.sqrt(g2[d]!);
      }
    }
    loss /= Math.max(1, rows.length);
  }
  return { weights: Array.from(w, (v) => Math.round(v * 1e5) / 1e5), loss };
}
