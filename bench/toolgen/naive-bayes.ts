import { FeatureSpace, rankClasses } from "./features.ts";

/** Multinomial Naive Bayes over query words (unigrams), Laplace smoothing, class priors from the training set. */
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

  rank(text: string, k: number): string[] {
    const C = this.labels.length;
    const scores = Float64Array.from(this.logPrior);
    for (const f of this.features.transform(text))
      for (let c = 0; c < C; c++) scores[c]! += this.logLikelihood[f * C + c]!;
    return rankClasses(scores, k).map((c) => this.labels[c]!);
  }
}
