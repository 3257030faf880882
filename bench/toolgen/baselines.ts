import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { Bm25Retriever, type Bm25Options } from "../../src/retrieval/bm25.ts";
import { ENGLISH_STOPWORDS } from "../../src/text/terms.ts";
import { figuresOf, type Figures } from "./common.ts";
import { WordNaiveBayes } from "../../src/retrieval/naive-bayes.ts";
import { SoftmaxRegression } from "./softmax-regression.ts";

/**
 * The baselines, each tuned on dev the same way ToolGen is: every configuration in the grid is scored on dev,
 * the best dev NDCG@1 (ties: the earlier, simpler one) is kept, and only that one is scored on test. Every
 * configuration tried is returned with its dev figures.
 */
export interface Tuned<C> {
  tried: Array<{ config: C; dev: Figures }>;
  selected: C;
  dev: Figures;
  /** Top-5 rankings of the selected configuration on the test queries (the paired test needs them). */
  testRankings: string[][];
  test: Figures;
  seconds: number;
}

export interface BaselineGrids {
  bm25: { k1: number[]; b: number[]; stem: boolean[] };
  naiveBayes: { alpha: number[] };
  regression: { lr: number[]; l2: number[]; epochs: number[] };
}

/** Today's grids (what fits on a shared 2-core machine alongside training); the lead can widen them. */
export const DEFAULT_GRIDS: BaselineGrids = {
  bm25: { k1: [0.9, 1.2, 1.6, 2.0], b: [0.5, 0.75, 0.9, 1.0], stem: [true, false] },
  naiveBayes: { alpha: [0.03, 0.1, 0.3, 1] },
  regression: { lr: [3e-3, 1e-2], l2: [0, 1e-5], epochs: [10, 20, 40] },
};

function pick<C>(tried: Array<{ config: C; dev: Figures }>): { config: C; dev: Figures } {
  return tried.reduce((a, b) => (b.dev["ndcg@1"]! > a.dev["ndcg@1"]! ? b : a));
}

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

export type Bm25Config = { k1: number; b: number; stem: boolean };

export function bm25Options(c: Bm25Config): Bm25Options {
  return { k1: c.k1, b: c.b, tokenizer: { stem: c.stem, stopwords: ENGLISH_STOPWORDS } };
}

export async function tuneBm25(
  catalog: readonly CatalogEntry[],
  dev: readonly LabelledQuery[],
  test: readonly LabelledQuery[],
  grid = DEFAULT_GRIDS.bm25,
  depth = 5,
): Promise<Tuned<Bm25Config> & { retriever: Bm25Retriever }> {
  const t = performance.now();
  const tried: Array<{ config: Bm25Config; dev: Figures }> = [];
  for (const stem of grid.stem)
    for (const k1 of grid.k1)
      for (const b of grid.b) {
        const r = new Bm25Retriever(catalog, bm25Options({ k1, b, stem }));
        const rankings: string[][] = [];
        for (const q of dev) rankings.push(ids(await r.search(q.query, { k: depth })));
        tried.push({ config: { k1, b, stem }, dev: figuresOf(dev, rankings) });
      }
  const best = pick(tried);
  const chosen = new Bm25Retriever(catalog, bm25Options(best.config));
  const testRankings: string[][] = [];
  for (const q of test) testRankings.push(ids(await chosen.search(q.query, { k: depth })));
  return {
    tried,
    selected: best.config,
    dev: best.dev,
    testRankings,
    test: figuresOf(test, testRankings),
    seconds: (performance.now() - t) / 1000,
    retriever: chosen,
  };
}

export function tuneNaiveBayes(
  train: readonly LabelledQuery[],
  dev: readonly LabelledQuery[],
  test: readonly LabelledQuery[],
  grid = DEFAULT_GRIDS.naiveBayes,
): Tuned<{ alpha: number }> {
  const t = performance.now();
  const texts = train.map((q) => q.query);
  const labels = train.map((q) => q.relevant[0]!);
  const models = new Map<number, WordNaiveBayes>();
  const tried = grid.alpha.map((alpha) => {
    const nb = new WordNaiveBayes();
    nb.train(texts, labels, alpha);
    models.set(alpha, nb);
    return {
      config: { alpha },
      dev: figuresOf(
        dev,
        dev.map((q) => nb.rank(q.query, 5)),
      ),
    };
  });
  const best = pick(tried);
  const nb = models.get(best.config.alpha)!;
  const testRankings = test.map((q) => nb.rank(q.query, 5));
  return {
    tried,
    selected: best.config,
    dev: best.dev,
    testRankings,
    test: figuresOf(test, testRankings),
    seconds: (performance.now() - t) / 1000,
  };
}

export type RegressionConfig = { lr: number; l2: number; epochs: number };

/**
 * One run per (lr, l2) for the largest epoch count, scored on dev after each listed epoch count (an epoch count
 * is a checkpoint of the same run, as early stopping would see it); the selected configuration is retrained
 * from scratch for exactly its epochs and scored on test.
 */
export function tuneRegression(
  train: readonly LabelledQuery[],
  dev: readonly LabelledQuery[],
  test: readonly LabelledQuery[],
  grid = DEFAULT_GRIDS.regression,
  seed = 1,
  log: (line: string) => void = () => {},
): Tuned<RegressionConfig> {
  const t = performance.now();
  const texts = train.map((q) => q.query);
  const labels = train.map((q) => q.relevant[0]!);
  const maxEpochs = Math.max(...grid.epochs);
  const tried: Array<{ config: RegressionConfig; dev: Figures }> = [];
  for (const lr of grid.lr)
    for (const l2 of grid.l2) {
      const sr = new SoftmaxRegression();
      sr.train(texts, labels, {
        epochs: maxEpochs,
        learningRate: lr,
        batchSize: 64,
        seed,
        l2,
        onEpoch: (epoch) => {
          if (!grid.epochs.includes(epoch)) return;
          const figures = figuresOf(
            dev,
            dev.map((q) => sr.rank(q.query, 5)),
          );
          tried.push({ config: { lr, l2, epochs: epoch }, dev: figures });
          log(`regression lr ${lr} l2 ${l2} epoch ${epoch}: dev NDCG@1 ${figures["ndcg@1"]}`);
        },
      });
    }
  const best = pick(tried);
  const sr = new SoftmaxRegression();
  sr.train(texts, labels, {
    epochs: best.config.epochs,
    learningRate: best.config.lr,
    batchSize: 64,
    seed,
    l2: best.config.l2,
  });
  const testRankings = test.map((q) => sr.rank(q.query, 5));
  return {
    tried,
    selected: best.config,
    dev: best.dev,
    testRankings,
    test: figuresOf(test, testRankings),
    seconds: (performance.now() - t) / 1000,
  };
}
