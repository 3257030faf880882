import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { BM25F_DEFAULTS } from "../../src/retrieval/bm25f.ts";
import { createRetriever, DEFAULT_RETRIEVER } from "../../src/retrieval/create.ts";
import { RANKER_FEATURES } from "../../src/retrieval/ranker-features.ts";
import { asEnsemble, trainRanker, type RankerGroup } from "../../src/retrieval/ranker-train.ts";
import {
  checkRankerModel,
  RankerRetriever,
  rankerInputs,
  rankerScore,
  shippedRanker,
  type RankerModel,
} from "../../src/retrieval/ranker.ts";
import { mulberry32 } from "../../src/eval/split.ts";

function entry(tool: string, description: string): CatalogEntry {
  return {
    id: tool,
    tool,
    api: "",
    description,
    parameters: { type: "object", properties: {}, required: [] },
    doc: {},
  };
}

const d = RANKER_FEATURES.length;
const oneHot = (feature: string): RankerModel => ({
  header: {},
  features: [...RANKER_FEATURES],
  candidates: 10,
  bm25f: BM25F_DEFAULTS,
  mean: new Array(d).fill(0),
  scale: new Array(d).fill(1),
  weights: RANKER_FEATURES.map((f) => (f === feature ? 1 : 0)),
  bias: 0,
});

describe("the shipped ranker", () => {
  it("loads, reads only this version's features and reproduces a known score", () => {
    const { model, associations, vectors } = shippedRanker();
    expect(model.features.filter((f) => !(RANKER_FEATURES as readonly string[]).includes(f))).toEqual([]);
    expect(model.header).toMatchObject({ command: "npx tsx bench/train-ranker.ts", seeds: { split: 41 } });
    expect(Object.keys(associations.table).length).toBeGreaterThan(100);
    expect(vectors.rows.size).toBeGreaterThan(1000);
    expect(vectors.data.length).toBe(vectors.rows.size * vectors.dims);
    // An input one standard deviation above the training mean in every input the model reads.
    const input = model.mean.map((m, i) => m + model.scale[i]);
    expect(rankerScore(model, input)).toBeCloseTo(KNOWN_SCORE, 9);
  });

  it("shares BM25F's shipped parameters, its expansion field aside", () => {
    const { model } = shippedRanker();
    const strip = (p: typeof BM25F_DEFAULTS) => ({
      k1: p.k1,
      weights: { ...p.weights, expansion: 0 },
      b: { ...p.b, expansion: 0 },
    });
    expect(strip(model.bm25f)).toEqual(strip(BM25F_DEFAULTS));
  });

  it("is the default retriever and finds the obvious tool", async () => {
    expect(DEFAULT_RETRIEVER).toBe("ranker");
    const catalog = [
      entry("weather", "Forecasts and current weather for a city."),
      entry("calculator", "Evaluates a formula."),
      entry("news", "Top headlines of the day."),
    ];
    const ranker = await createRetriever(DEFAULT_RETRIEVER, { catalog });
    expect(ranker.name).toBe("ranker");
    expect((await ranker.search("weather forecast for tomorrow", { k: 1 }))[0].id).toBe("weather");
  });
});

describe("ranker", () => {
  it("re-orders BM25F's candidates by its model", () => {
    // "cloud storage": BM25F prefers the tool whose name says both words (names weigh most); a model that
    // scores only description length prefers the long description that merely mentions them.
    const catalog = [
      entry(
        "uploader",
        "Put files in cloud storage, share folders with teams, keep versions of every document",
      ),
      entry("CloudStorage", "Keeps files."),
    ];
    const none = { header: {}, table: {} };
    const byScore = new RankerRetriever(catalog, oneHot("bm25f_relative"), none);
    const byLength = new RankerRetriever(catalog, oneHot("description_length_log"), none);
    expect(byScore.searchSync("cloud storage", { k: 2 }).map((h) => h.id)).toEqual([
      "CloudStorage",
      "uploader",
    ]);
    expect(byLength.searchSync("cloud storage", { k: 2 }).map((h) => h.id)).toEqual([
      "uploader",
      "CloudStorage",
    ]);
  });

  it("refuses a weights file for other features", () => {
    const model = { ...oneHot("bm25f_log"), features: ["something_else"] };
    expect(() => checkRankerModel(model, "x.json")).toThrow(/not a ranker model/);
  });

  it("learns which feature marks the relevant candidate", () => {
    const rand = mulberry32(5);
    const signal = RANKER_FEATURES.indexOf("name_recall");
    const group = (): RankerGroup => {
      const relevantAt = Math.floor(rand() * 5);
      const rows = Array.from({ length: 5 }, (_, c) => {
        const row = Float64Array.from({ length: d }, () => rand());
        row[signal] = c === relevantAt ? 0.8 + 0.2 * rand() : 0.6 * rand();
        return row;
      });
      return { rows, relevant: rows.map((_, c) => c === relevantAt), weight: 1 };
    };
    const train = Array.from({ length: 200 }, group);
    for (const [hidden, normalize, loss] of [
      [0, undefined, undefined],
      [4, undefined, undefined],
      [0, "both", undefined],
      [4, "both", undefined],
      [0, undefined, "ranknet"],
      [4, undefined, "lambdarank"],
    ] as const) {
      const model = trainRanker(train, {
        hidden,
        normalize,
        loss,
        epochs: 10,
        learningRate: 0.05,
        l2: 1e-4,
        batch: 16,
        rand: mulberry32(1),
        candidates: 5,
        bm25f: BM25F_DEFAULTS,
        header: {},
      });
      const held = Array.from({ length: 50 }, group);
      const right = held.filter((g) => {
        const scores = rankerInputs(model, g.rows).map((x) => rankerScore(model, x));
        return g.relevant[scores.indexOf(Math.max(...scores))];
      }).length;
      expect(right).toBeGreaterThanOrEqual(45);
      // With query-standardised copies the model reads twice as many inputs, and its file says so.
      expect(checkRankerModel(model, "trained").mean).toHaveLength(normalize ? 2 * d : d);
      expect(model.normalize).toBe(normalize);
    }
  });

  it("weighs features by the query's length when asked (interact), which one linear model alone cannot", () => {
    const rand = mulberry32(9);
    const short = RANKER_FEATURES.indexOf("name_recall");
    const long = RANKER_FEATURES.indexOf("params_recall");
    const length = RANKER_FEATURES.indexOf("query_terms_log");
    // Short queries: the relevant candidate leads on name_recall and trails on params_recall; long ones the reverse.
    const group = (): RankerGroup => {
      const isLong = rand() < 0.5;
      const relevantAt = Math.floor(rand() * 5);
      const rows = Array.from({ length: 5 }, (_, c) => {
        const row = Float64Array.from({ length: d }, () => rand());
        const hit = c === relevantAt;
        row[short] = hit === !isLong ? 0.8 + 0.2 * rand() : 0.6 * rand();
        row[long] = hit === isLong ? 0.8 + 0.2 * rand() : 0.6 * rand();
        row[length] = isLong ? Math.log1p(30) : Math.log1p(4);
        return row;
      });
      return { rows, relevant: rows.map((_, c) => c === relevantAt), weight: 1 };
    };
    const train = Array.from({ length: 300 }, group);
    const held = Array.from({ length: 100 }, group);
    const right = (interact?: "query_terms_log"): number => {
      const model = trainRanker(train, {
        hidden: 0,
        interact,
        epochs: 20,
        learningRate: 0.05,
        l2: 1e-4,
        batch: 16,
        rand: mulberry32(1),
        candidates: 5,
        bm25f: BM25F_DEFAULTS,
        header: {},
      });
      expect(checkRankerModel(model, "trained").mean).toHaveLength(interact ? 2 * d : d);
      return held.filter((g) => {
        const scores = rankerInputs(model, g.rows).map((x) => rankerScore(model, x));
        return g.relevant[scores.indexOf(Math.max(...scores))];
      }).length;
    };
    expect(right()).toBeLessThan(80);
    expect(right("query_terms_log")).toBeGreaterThanOrEqual(90);
  });
});

describe("ranker ensembles", () => {
  const rand = mulberry32(3);
  const groups = Array.from({ length: 40 }, (): RankerGroup => {
    const rows = Array.from({ length: 4 }, () => Float64Array.from({ length: d }, () => rand()));
    return { rows, relevant: [true, false, false, false], weight: 1 };
  });
  const options = {
    hidden: 3,
    epochs: 2,
    learningRate: 0.05,
    l2: 1e-4,
    batch: 8,
    candidates: 4,
    bm25f: BM25F_DEFAULTS,
    header: {},
  };
  const models = [1, 2, 3].map((seed) => trainRanker(groups, { ...options, rand: mulberry32(seed) }));

  it("scores the mean of its members' scores, and its file is checked like one model's", () => {
    const ensemble = checkRankerModel(asEnsemble(models), "ensemble");
    expect(ensemble.members).toHaveLength(2);
    for (const row of rankerInputs(ensemble, groups[0].rows)) {
      const mean = models.reduce((s, m) => s + rankerScore(m, row), 0) / models.length;
      expect(rankerScore(ensemble, row)).toBeCloseTo(mean, 12);
      // The members differ (other seeds), so the mean is not any one model's score.
      expect(new Set(models.map((m) => rankerScore(m, row).toFixed(9))).size).toBe(3);
    }
    expect(asEnsemble([models[0]])).toBe(models[0]);
  });

  it("refuses members of another shape, and models trained on other inputs", () => {
    const ensemble = asEnsemble(models);
    const bad = { ...ensemble, members: [{ ...ensemble.members![0], weights: [1] }] };
    expect(() => checkRankerModel(bad, "x.json")).toThrow(/not a ranker model/);
    const other = trainRanker(groups.slice(0, 20), { ...options, rand: mulberry32(4) });
    expect(() => asEnsemble([models[0], other])).toThrow(/share/);
  });
});

/** rankerScore of the shipped model on the row above; changes only when the weights file is rebuilt. */
const KNOWN_SCORE = -0.2958716317;
