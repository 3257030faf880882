import { FeatureSpace, rankClasses } from "./word-features.ts";

/**
 * Multinomial Naive Bayes over query words (unigrams), Laplace smoothing, class priors from the training set: a
 * baseline of the retrieval benches, and the demo's word prior over tools (demo/action-prior.ts).
 */
export class WordNaiveBayes {
  private readonly features = new FeatureSpace(false);
  private logPrior = new Float64Array(0);
  private logLikelihood = new Float64Array(0);
  private labels: string[] = [];

  train(texts: readonly string[], targets: readonly string[], alpha = 1): void {
    this.labels = [...new Set(targets)].sort();
    const labelId = new Map(this.labels.map((l, i) => [l, i]));
    const x = this.features.fit(texts);
    const C = this.labels.length;
    const F = this.features.size;
    const counts = new Float64Array(F * C);
    const totals = new Float64Array(C);
    const docs = new Float64Array(C);
    x.forEach((feats, n) => {
      const c = labelId.get(targets[n]!)!;
      docs[c]!++;
      for (const f of feats) {
        counts[f * C + c]!++;
        totals[c]!++;
      }
    });
    this.logPrior = docs.map((d) => Math.log(d / x.length));
    this.logLikelihood = new Float64Array(F * C);
    for (let f = 0; f < F; f++) {
      for (let c = 0; c < C; c++) {
        this.logLikelihood[f * C + c] = Math.log((counts[f * C + c]! + alpha) / (totals[c]! + alpha * F));
      }
    }
  }

  private scores(text: string): Float64Array {
    const C = this.labels.length;
    const scores = Float64Array.from(this.logPrior);
    for (const f of this.features.transform(text))
      for (let c = 0; c < C; c++) scores[c]! += this.logLikelihood[f * C + c]!;
    return scores;
  }

  rank(text: string, k: number): string[] {
    return rankClasses(this.scores(text), k).map((c) => this.labels[c]!);
  }

  /** log P(class | words) of every class (the scores normalised over the classes). */
  logPosterior(text: string): Map<string, number> {
    const scores = this.scores(text);
    let max = -Infinity;
    for (const s of scores) max = Math.max(max, s);
    let sum = 0;
    for (const s of scores) sum += Math.exp(s - max);
    const log = max + Math.log(sum);
    return new Map(this.labels.map((label, c) => [label, scores[c]! - log]));
  }
}
