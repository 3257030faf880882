import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { FieldIndex } from "../../src/retrieval/bm25f.ts";
import { attachGenerated } from "../../src/retrieval/generated-queries.ts";
import { RANKER_FEATURES, rankerFeatures } from "../../src/retrieval/ranker-features.ts";

const entry = (tool: string, description: string): CatalogEntry => ({
  id: tool,
  tool,
  api: "",
  description,
  parameters: { type: "object", properties: {}, required: [] },
  doc: {},
});

const catalog = [
  entry("FinanceTool", "latest updates on stocks"),
  entry("WeatherTool", "the forecast for a city"),
  entry("NewsTool", "headlines about markets"),
];
const column = (name: string): number => RANKER_FEATURES.indexOf(name as (typeof RANKER_FEATURES)[number]);
const features = (index: FieldIndex, query: string) =>
  rankerFeatures(
    index,
    index.queryTerms(query),
    catalog.map((_, doc) => ({ doc, score: 1 })),
  );

describe("generated pseudo-queries", () => {
  it("are 0 for an index with none attached", () => {
    const rows = features(new FieldIndex(catalog), "will it rain in paris");
    for (const f of ["gen_bm25", "gen_cover", "gen_best"]) for (const r of rows) expect(r[column(f)]).toBe(0);
  });

  it("credit the tool whose pseudo-queries say the query's words its schema does not", () => {
    const index = new FieldIndex(catalog);
    attachGenerated(
      index,
      new Map([
        ["WeatherTool", ["will it rain tomorrow", "is it sunny in paris"]],
        ["NewsTool", ["what happened today"]],
      ]),
    );
    const rows = features(index, "will it rain in paris");
    const [finance, weather, news] = rows;
    expect(weather[column("gen_bm25")]).toBeGreaterThan(news[column("gen_bm25")]);
    expect(weather[column("gen_cover")]).toBeGreaterThan(0);
    // no single pseudo-query says both "rain" and "paris": the best one says less than all of them together
    expect(weather[column("gen_best")]).toBeGreaterThan(0);
    expect(weather[column("gen_best")]).toBeLessThan(weather[column("gen_cover")]);
    expect(finance[column("gen_cover")]).toBe(0);
  });
});
