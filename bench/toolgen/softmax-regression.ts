import { Rng } from "../../src/nn/rng.ts";
import { FeatureSpace, rankClasses } from "../../src/retrieval/word-features.ts";

export interface RegressionOptions {
  epochs?: number;
  batchSize?: number;
  learningRate?: number;
  seed?: number;
  /** L2 penalty λ·‖w‖²/2 on the weights of the features present in a batch (lazy, like the Adam update). */
  l2?: number;
  /** Called after each epoch (1-based): the bench scores dev at several epochs of one run. */
  onEpoch?: (epoch: number) => void;
}

/**
 * A plain softmax regression over binary word unigram + bigram features, trained with Adam (the issue's
 * strongest simple learner: 40 epochs). The Adam update is lazy (only the weight rows of features present in a
 * batch move, with the global step's bias correction), the usual treatment of sparse inputs.
 */
export class SoftmaxRegression {
  private readonly features = new FeatureSpace(true);
  private weights = new Float64Array(0);
  private bias = new Float64Array(0);
  private labels: string[] = [];

  train(texts: readonly string[], targets: readonly string[], options: RegressionOptions = {}): void {
    const { epochs = 40, batchSize = 32, learningRate = 0.01, seed = 1, l2 = 0 } = options;
    this.labels = [...new Set(targets)].sort();
    const labelId = new Map(this.labels.map((l, i) => [l, i]));
    const x = this.features.fit(texts);
    const y = targets.map((t) => labelId.get(t)!);
    const C = this.labels.length;
    const F = this.features.size;
    this.weights = new Float64Array(F * C);
    this.bias = new Float64Array(C);
    const m = new Float64Array(F * C);
    const v = new Float64Array(F * C);
    const mb = new Float64Array(C);
    const vb = new Float64Array(C);
    const [b1, b2, eps] = [0.9, 0.999, 1e-8];
    const rng = new Rng(seed);
    const order = x.map((_, i) => i);
    const grad = new Map<number, Float64Array>();
    const gradBias = new Float64Array(C);
    const probs = new Float64Array(C);
    let step = 0;
    for (let epoch = 0; epoch < epochs; epoch++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      for (let start = 0; start < order.length; start += batchSize) {
        const batch = order.slice(start, start + batchSize);
        grad.clear();
        gradBias.fill(0);
        for (const n of batch) {
          this.scoresInto(x[n]!, probs);
          let max = -Infinity;
          for (let c = 0; c < C; c++) max = Math.max(max, probs[c]!);
          let sum = 0;
          for (let c = 0; c < C; c++) sum += probs[c] = Math.exp(probs[c]! - max);
          for (let c = 0; c < C; c++) probs[c] = (probs[c]! / sum - (c === y[n] ? 1 : 0)) / batch.length;
          for (let c = 0; c < C; c++) gradBias[c]! += probs[c]!;
          for (const f of x[n]!) {
            let g = grad.get(f);
            if (!g) grad.set(f, (g = new Float64Array(C)));
            for (let c = 0; c < C; c++) g[c]! += probs[c]!;
          }
        }
        step++;
        const lr = (learningRate * Math.sqrt(1 - b2 ** step)) / (1 - b1 ** step);
        const update = (
          w: Float64Array,
          mm: Float64Array,
          vv: Float64Array,
          off: number,
          g: Float64Array,
        ) => {
          for (let c = 0; c < C; c++) {
            const k = off + c;
            mm[k] = b1 * mm[k]! + (1 - b1) * g[c]!;
            vv[k] = b2 * vv[k]! + (1 - b2) * g[c]! * g[c]!;
            w[k]! -= (lr * mm[k]!) / (Math.sqrt(vv[k]!) + eps);
          }
        };
        for (const [f, g] of grad) {
          if (l2 > 0) for (let c = 0; c < C; c++) g[c]! += l2 * this.weights[f * C + c]!;
          update(this.weights, m, v, f * C, g);
        }
        update(this.bias, mb, vb, 0, gradBias);
      }
      options.onEpoch?.(epoch + 1);
    }
  }

  private scoresInto(features: readonly number[], out: Float64Array): void {
    const C = this.labels.length;
    out.set(this.bias);
    for (const f of features) for (let c = 0; c < C; c++) out[c]! += this.weights[f * C + c]!;
  }

  rank(text: string, k: number): string[] {
    const scores = new Float64Array(this.labels.length);
    this.scoresInto(this.features.transform(text), scores);
    return rankClasses(scores, k).map((c) => this.labels[c]!);
  }
}
