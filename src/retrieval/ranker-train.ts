import { inputWidth, rankerInputs, type RankerMember, type RankerModel } from "./ranker.ts";
import { RANKER_FEATURES, type RankerFeature } from "./ranker-features.ts";
import type { Bm25fParams } from "./bm25f.ts";

/** One training query: the feature rows of its candidates and which of them are relevant. */
export interface RankerGroup {
  rows: Float64Array[];
  relevant: boolean[];
  /** The query's weight in the loss (e.g. 1 / queries of its data set, so two sets count alike). */
  weight: number;
  /** The tool the query names (the bench may weigh queries by their tool's share; the trainer ignores it). */
  tool?: string;
}

export interface RankerTrainOptions {
  /** Hidden tanh units; 0 = a linear model. */
  hidden: number;
  epochs: number;
  learningRate: number;
  l2: number;
  batch: number;
  /** A seeded uniform [0, 1) source: initial weights and batch order. */
  rand: () => number;
  candidates: number;
  /** Candidates added from the word vectors (0: none). */
  dense?: number;
  bm25f: Bm25fParams;
  header: Record<string, unknown>;
  /** The features the model reads (default: all of RANKER_FEATURES); rows hold every feature. */
  features?: readonly RankerFeature[];
  /** "both": the features and their copies standardised over each query's candidates (RankerModel.normalize). */
  normalize?: "both";
  /** A feature the inputs are also multiplied by (RankerModel.interact). */
  interact?: RankerFeature;
  /**
   * The loss (default "listnet"): "ranknet" the logistic loss of every (relevant, other) pair of a query's
   * candidates, averaged; "lambdarank" the same pairs each weighed by how much swapping them would change the
   * query's NDCG under the current scores, so the pairs near the top count most.
   */
  loss?: "listnet" | "ranknet" | "lambdarank";
}

/**
 * Training by default listwise (ListNet's top-one softmax): for each query, the cross-entropy between the softmax of
 * the candidates' scores and the relevant candidates (uniform over them); or pairwise (`loss`); minimised with Adam
 * on mini-batches of queries, L2 on the weights. Hand-written: the model is a few hundred numbers.
 */
export function trainRanker(groups: readonly RankerGroup[], o: RankerTrainOptions): RankerModel {
  const features = o.features ?? RANKER_FEATURES;
  const shape = {
    features: [...features],
    ...(o.normalize ? { normalize: o.normalize } : {}),
    ...(o.interact ? { interact: o.interact } : {}),
  };
  const d = inputWidth(shape);
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  let count = 0;
  const projected = groups.map((g) => ({ ...g, rows: rankerInputs(shape, g.rows) }));
  for (const g of projected)
    for (const row of g.rows) {
      count++;
      for (let i = 0; i < d; i++) mean[i] += row[i];
    }
  for (let i = 0; i < d; i++) mean[i] /= Math.max(1, count);
  for (const g of projected)
    for (const row of g.rows) for (let i = 0; i < d; i++) scale[i] += (row[i] - mean[i]) ** 2;
  for (let i = 0; i < d; i++) scale[i] = Math.sqrt(scale[i] / Math.max(1, count)) || 1;
  const data = projected.map((g) => ({
    x: g.rows.map((r) => r.map((v, i) => (v - mean[i]) / scale[i])),
    y: g.relevant,
    weight: g.weight,
  }));

  const h = o.hidden;
  const init = (n: number, s: number): Float64Array =>
    Float64Array.from({ length: n }, () => (o.rand() * 2 - 1) * s);
  // Parameters in one vector: [W1 (h×d), b1 (h), w2 (h)] or [w (d)].
  const size = h > 0 ? h * d + h + h : d;
  const theta = h > 0 ? init(size, 1 / Math.sqrt(d)) : new Float64Array(size);
  const m = new Float64Array(size);
  const v = new Float64Array(size);
  const grad = new Float64Array(size);
  let step = 0;
  const hiddenOf = (x: Float64Array, out: Float64Array): void => {
    for (let j = 0; j < h; j++) {
      let s = theta[h * d + j];
      for (let i = 0; i < d; i++) s += theta[j * d + i] * x[i];
      out[j] = Math.tanh(s);
    }
  };
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(o.rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let start = 0; start < order.length; start += o.batch) {
      grad.fill(0);
      let batchWeight = 0;
      for (const gi of order.slice(start, start + o.batch)) {
        const { x, y, weight } = data[gi];
        const hid = x.map(() => new Float64Array(h));
        const scores = x.map((row, c) => {
          if (h === 0) return row.reduce((s, xi, i) => s + theta[i] * xi, 0);
          hiddenOf(row, hid[c]);
          let s = 0;
          for (let j = 0; j < h; j++) s += theta[h * d + h + j] * hid[c][j];
          return s;
        });
        const dScores = lossGradient(o.loss ?? "listnet", scores, y, weight);
        batchWeight += weight;
        x.forEach((row, c) => {
          const ds = dScores[c];
          if (ds === 0) return;
          if (h === 0) {
            for (let i = 0; i < d; i++) grad[i] += ds * row[i];
            return;
          }
          for (let j = 0; j < h; j++) {
            const a = hid[c][j];
            const w2 = theta[h * d + h + j];
            grad[h * d + h + j] += ds * a;
            const back = ds * w2 * (1 - a * a);
            grad[h * d + j] += back;
            for (let i = 0; i < d; i++) grad[j * d + i] += back * row[i];
          }
        });
      }
      if (batchWeight === 0) continue;
      step++;
      const b1 = 0.9;
      const b2 = 0.999;
      for (let i = 0; i < size; i++) {
        const g = grad[i] / batchWeight + o.l2 * theta[i];
        m[i] = b1 * m[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        const mh = m[i] / (1 - b1 ** step);
        const vh = v[i] / (1 - b2 ** step);
        theta[i] -= (o.learningRate * mh) / (Math.sqrt(vh) + 1e-8);
      }
    }
  }
  const round = (x: number): number => Number(x.toPrecision(6));
  const base = {
    header: o.header,
    features: [...features],
    candidates: o.candidates,
    ...(o.dense ? { dense: o.dense } : {}),
    bm25f: o.bm25f,
    mean: mean.map(round),
    scale: scale.map(round),
    bias: 0,
    ...(o.normalize ? { normalize: o.normalize } : {}),
    ...(o.interact ? { interact: o.interact } : {}),
  };
  if (h === 0) return { ...base, weights: [...theta].map(round) };
  return {
    ...base,
    hidden: {
      weights: Array.from({ length: h }, (_, j) => [...theta.slice(j * d, (j + 1) * d)].map(round)),
      bias: [...theta.slice(h * d, h * d + h)].map(round),
    },
    weights: [...theta.slice(h * d + h)].map(round),
  };
}

/**
 * The loss's gradient with respect to each candidate's score, times the query's weight. ListNet: the softmax of the
 * scores minus the relevant candidates' uniform distribution. RankNet / LambdaRank: for each (relevant, other)
 * pair, the logistic loss of their score gap, over the number of pairs (LambdaRank: each pair weighed by the NDCG
 * change of swapping the two in the current order, over the query's ideal DCG).
 */
function lossGradient(
  loss: "listnet" | "ranknet" | "lambdarank",
  scores: readonly number[],
  y: readonly boolean[],
  weight: number,
): number[] {
  const relevantCount = y.filter(Boolean).length;
  if (loss === "listnet") {
    const max = Math.max(...scores);
    const exp = scores.map((s) => Math.exp(s - max));
    const z = exp.reduce((a, c) => a + c, 0);
    return scores.map((_, c) => weight * (exp[c] / z - (y[c] ? 1 / relevantCount : 0)));
  }
  const out = new Array<number>(scores.length).fill(0);
  const others = scores.length - relevantCount;
  if (relevantCount === 0 || others === 0) return out;
  // Rank of each candidate under the current scores (1 = best), for LambdaRank's NDCG change.
  const rank = new Array<number>(scores.length);
  scores
    .map((s, c) => ({ s, c }))
    .sort((a, b) => b.s - a.s || a.c - b.c)
    .forEach(({ c }, r) => (rank[c] = r + 1));
  let ideal = 0;
  for (let r = 1; r <= relevantCount; r++) ideal += 1 / Math.log2(1 + r);
  const pairs = relevantCount * others;
  for (let p = 0; p < scores.length; p++) {
    if (!y[p]) continue;
    for (let n = 0; n < scores.length; n++) {
      if (y[n]) continue;
      const sigma = 1 / (1 + Math.exp(scores[p] - scores[n]));
      const lambda =
        loss === "lambdarank" ? Math.abs(1 / Math.log2(1 + rank[p]) - 1 / Math.log2(1 + rank[n])) / ideal : 1;
      const g = (weight * sigma * lambda) / (loss === "lambdarank" ? relevantCount : pairs);
      out[p] -= g;
      out[n] += g;
    }
  }
  return out;
}

/**
 * One model whose score is the mean of the given ones' (`RankerModel.members`): they must be trained on the same
 * groups with the same options but the seed, so they share the features and the standardisation (`mean`, `scale`).
 */
export function asEnsemble(models: readonly RankerModel[]): RankerModel {
  const [first, ...rest] = models;
  if (first === undefined) throw new Error("asEnsemble: no model");
  const same = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  for (const m of rest)
    if (
      !same(m.mean, first.mean) ||
      !same(m.scale, first.scale) ||
      m.features.join() !== first.features.join()
    )
      throw new Error("asEnsemble: the models do not share their inputs");
  if (rest.length === 0) return first;
  const members = rest.map((m): RankerMember => ({
    ...(m.hidden ? { hidden: m.hidden } : {}),
    weights: m.weights,
    bias: m.bias,
  }));
  return { ...first, members };
}
