import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { FieldIndex } from "../../src/retrieval/bm25f.ts";
import { PrefixIndex } from "../../src/retrieval/prefix-match.ts";
import { CollectionModel } from "../../src/retrieval/query-likelihood.ts";
import { RANKER_FEATURES, rankerFeatures } from "../../src/retrieval/ranker-features.ts";
import { SoftIndex } from "../../src/retrieval/soft-match.ts";
import type { WordVectors } from "../../src/retrieval/word-vectors.ts";

const entry = (tool: string, description: string, param?: [string, string]): CatalogEntry => ({
  id: tool,
  tool,
  api: "",
  description,
  parameters: {
    type: "object",
    properties: param ? { [param[0]]: { type: "string", description: param[1] } } : {},
    required: [],
  },
  doc: {},
});

const catalog = [
  entry("FinanceTool", "latest updates on stocks and cryptocurrencies"),
  entry("WeatherTool", "the weather forecast for a city", ["unit", "celsius or fahrenheit"]),
  entry("NewsTool", "news headlines about the weather and markets"),
];
const index = new FieldIndex(catalog);
const column = (name: string): number => RANKER_FEATURES.indexOf(name as (typeof RANKER_FEATURES)[number]);
const rows = (query: string, soft?: SoftIndex) =>
  rankerFeatures(
    index,
    index.queryTerms(query),
    catalog.map((_, doc) => ({ doc, score: 1 })),
    soft,
  );

describe("query likelihood", () => {
  it("prefers the document whose own words make the query likelier than the catalog does", () => {
    const r = rows("weather forecast");
    const ql = column("ql_document");
    expect(r[1][ql]).toBeGreaterThan(r[2][ql]); // says both words, against one
    expect(r[2][ql]).toBeGreaterThan(r[0][ql]); // one word against none
    expect(r[0][ql]).toBeLessThan(0); // below the catalog's own likelihood
  });

  it("scores a query with no known word 0, and skips unknown words", () => {
    const model = new CollectionModel(index);
    expect(model.logLikelihoodRatio([-1], [0], 5, 5, "whole")).toBe(0);
    const t = index.terms.get("weather")!;
    expect(model.logLikelihoodRatio([t, -1], [1, 0], 5, 5, "whole")).toBe(
      model.logLikelihoodRatio([t], [1], 5, 5, "whole"),
    );
  });
});

describe("prefix matching", () => {
  it("relates words the stemmer leaves apart, both ways, and not short ones", () => {
    const prefix = new PrefixIndex(index);
    const related = (term: string) => prefix.related(term).map((t) => index.termList[t]);
    expect(index.terms.has("crypto")).toBe(false);
    expect(related("crypto")).toContain(index.queryTerms("cryptocurrencies")[0]);
    expect(related(index.queryTerms("cryptocurrencies")[0] + "x")).toContain(
      index.queryTerms("cryptocurrencies")[0],
    );
    expect(related("new")).toEqual([]);
  });

  it("counts a query word said only by a relative in prefix_gap", () => {
    const r = rows("crypto stocks");
    expect(r[0][column("prefix_cover")]).toBeCloseTo(1, 9);
    expect(r[0][column("prefix_gap")]).toBeGreaterThan(0.3);
    expect(r[1][column("prefix_cover")]).toBe(0);
  });
});

describe("phrases and per-field coverage", () => {
  it("finds a query's word pair said as a phrase, in either order", () => {
    const r = rows("forecast weather");
    expect(r[1][column("bigram_match")]).toBe(1);
    expect(r[2][column("bigram_match")]).toBe(0);
  });

  it("says which field covers the query", () => {
    const r = rows("celsius weather");
    expect(r[1][column("cover_paramText")]).toBeGreaterThan(0.4);
    expect(r[1][column("cover_description")]).toBeGreaterThan(0);
    expect(r[1][column("cover_name")]).toBeGreaterThan(0); // "WeatherTool" is split into "weather tool"
    expect(r[2][column("cover_paramText")]).toBe(0);
  });
});

describe("per-field soft matching", () => {
  const words = ["forecast", "rain", "celsiu", "temperatur"];
  const at: Record<string, number[]> = {
    forecast: [1, 0],
    rain: [0.8, 0.6],
    celsiu: [0, 1],
    temperatur: [0.1, 0.99],
  };
  const vectors: WordVectors = {
    header: {},
    dims: 2,
    rows: new Map(words.map((w, i) => [w, i])),
    data: Float32Array.from(words.flatMap((w) => at[w])),
  };
  const soft = new SoftIndex(index, vectors);

  it("scores each field apart; parameter text only in its own feature", () => {
    const [, weather] = rows("temperature", soft);
    expect(weather[column("soft_paramText")]).toBeCloseTo(0.99, 2); // temperatur · celsiu
    expect(weather[column("soft_description")]).toBeCloseTo(0.1, 2); // temperatur · forecast
    expect(weather[column("soft_max")]).toBeCloseTo(0.1, 2); // the whole document leaves parameter text out
    expect(weather[column("soft_name")]).toBe(0); // no name word has a vector
  });
});
