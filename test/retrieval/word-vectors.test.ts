import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { mulberry32 } from "../../src/eval/split.ts";
import { FieldIndex } from "../../src/retrieval/bm25f.ts";
import { SoftIndex } from "../../src/retrieval/soft-match.ts";
import { symmetricEigen } from "../../src/retrieval/symmetric-eigen.ts";
import {
  learnWordVectors,
  readWordVectors,
  wordVectorsFile,
  type TermBag,
  type WordVectors,
} from "../../src/retrieval/word-vectors.ts";

const cosine = (v: WordVectors, a: string, b: string): number => {
  const [i, j] = [v.rows.get(a)!, v.rows.get(b)!];
  let s = 0;
  for (let c = 0; c < v.dims; c++) s += v.data[i * v.dims + c] * v.data[j * v.dims + c];
  return s;
};

describe("symmetricEigen", () => {
  it("solves A v = λ v for a random symmetric matrix", () => {
    const n = 12;
    const rand = mulberry32(3);
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = rand() * 2 - 1;
    const { values, vectors } = symmetricEigen(a, n);
    for (let e = 0; e < n; e++)
      for (let i = 0; i < n; i++) {
        let av = 0;
        for (let j = 0; j < n; j++) av += a[i * n + j] * vectors[j * n + e];
        expect(av).toBeCloseTo(values[e] * vectors[i * n + e], 9);
      }
  });
});

describe("learnWordVectors", () => {
  // Two topics: words of one topic share bags, never with the other's.
  const rand = mulberry32(7);
  const topics = [
    ["hous", "condo", "apart", "mortgag", "bedroom"],
    ["stock", "crypto", "invest", "market", "trade"],
  ];
  const bags: TermBag[] = [];
  for (let i = 0; i < 400; i++) {
    const words = topics[i % 2];
    bags.push({ terms: words.filter(() => rand() < 0.5), weight: 1 });
  }
  const options = { dims: 4, minCount: 2, smoothing: 0.75, eigenPower: 0.5, iterations: 6 };

  it("puts words that share their bags closer than words that never do", () => {
    const v = learnWordVectors(bags, { ...options, rand: mulberry32(1) });
    expect(v.rows.size).toBe(10);
    expect(cosine(v, "condo", "hous")).toBeGreaterThan(cosine(v, "condo", "stock") + 0.5);
    expect(cosine(v, "crypto", "invest")).toBeGreaterThan(cosine(v, "crypto", "mortgag") + 0.5);
    expect(cosine(v, "hous", "hous")).toBeCloseTo(1, 5);
  });

  it("gives the same vectors for the same seed, and survives its int8 file form", () => {
    const a = learnWordVectors(bags, { ...options, rand: mulberry32(1) });
    const b = learnWordVectors(bags, { ...options, rand: mulberry32(1) });
    expect(JSON.stringify(wordVectorsFile(a))).toBe(JSON.stringify(wordVectorsFile(b)));
    const back = readWordVectors(JSON.parse(JSON.stringify(wordVectorsFile(a))));
    expect([...back.rows.keys()]).toEqual([...a.rows.keys()]);
    for (let i = 0; i < a.data.length; i++) expect(Math.abs(back.data[i] - a.data[i])).toBeLessThan(0.02);
  });
});

describe("SoftIndex", () => {
  const entry = (tool: string, description: string): CatalogEntry => ({
    id: tool,
    tool,
    api: "",
    description,
    parameters: { type: "object", properties: {}, required: [] },
    doc: {},
  });
  const catalog = [
    entry("HousePurchasingTool", "information about house purchasing"),
    entry("FinanceTool", "stocks and cryptocurrencies"),
  ];
  const index = new FieldIndex(catalog);
  // Hand-set vectors: "condo" points where "hous" does, "invest" where "stock" does.
  const words = ["condo", "hous", "invest", "stock", "purchas"];
  const rowsOf: Record<string, number[]> = {
    condo: [1, 0, 0],
    hous: [0.96, 0.28, 0],
    purchas: [0, 0, 1],
    invest: [0, 1, 0],
    stock: [0, 0.96, 0.28],
  };
  const vectors: WordVectors = {
    header: {},
    dims: 3,
    rows: new Map(words.map((w, i) => [w, i])),
    data: Float32Array.from(words.flatMap((w) => rowsOf[w])),
  };
  const soft = new SoftIndex(index, vectors);

  it("scores a tool that says the query's words in other words, and finds it without a shared word", () => {
    const terms = index.queryTerms("condo");
    const [house, finance] = soft.features(terms, [0, 1]);
    expect(house[0]).toBeCloseTo(0.96, 5); // soft_max: condo · hous
    expect(house[1]).toBeCloseTo(0.96, 5); // soft_gap: condo is not said by the house tool
    expect(finance[0]).toBeLessThan(0.3);
    expect(house[2]).toBeGreaterThan(finance[2]); // centroids
    expect(soft.nearest(terms, 1).map((h) => h.doc)).toEqual([0]);
  });

  it("gives 1 and no gap for a word the tool says", () => {
    const [, finance] = soft.features(index.queryTerms("stock"), [0, 1]);
    expect(finance[0]).toBeCloseTo(1, 6);
    expect(finance[1]).toBe(0);
  });
});
