import { ToolgenError } from "../../src/errors.ts";
import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { Bm25Retriever } from "../../src/retrieval/bm25.ts";
import { createRetriever } from "../../src/retrieval/create.ts";
import { toolgenDocument } from "../../src/retrieval/documents.ts";

function entry(tool: string, api: string, description: string, category = "Data"): CatalogEntry {
  return {
    id: `${tool}&&${api}`,
    tool,
    api,
    category,
    description,
    parameters: { type: "object", properties: {}, required: [] },
    doc: { category_name: category, tool_name: tool, api_name: api, api_description: description },
  };
}

const catalog = [
  entry("Weather", "current", "Current weather conditions for a city"),
  entry("Weather", "forecast", "Seven day weather forecast for a city"),
  entry("Movies", "search", "Search movies by title"),
  entry("Stocks", "quote", "Latest stock quote for a ticker symbol"),
];

describe("BM25", () => {
  it("ranks the entry that shares the rare words first", async () => {
    const bm25 = new Bm25Retriever(catalog, { document: "description" });
    const hits = await bm25.search("what is the weather forecast in Paris", { k: 2 });
    expect(hits.map((h) => h.id)).toEqual(["Weather&&forecast", "Weather&&current"]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it("matches the textbook Okapi formula on a hand-computed case", () => {
    const docs = [entry("a", "x", "apple apple banana"), entry("b", "y", "banana cherry")];
    const bm25 = new Bm25Retriever(docs, { document: "description", k1: 1.2, b: 0.75 });
    const [hit] = bm25.searchSync("apple", { k: 1 });
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const avg = 2.5;
    const expected = (idf * 2 * 2.2) / (2 + 1.2 * (1 - 0.75 + (0.75 * 3) / avg));
    expect(hit.id).toBe("a&&x");
    expect(hit.score).toBeCloseTo(expected, 12);
  });

  it("is deterministic, breaks ties by catalog order and honours k", () => {
    const twins = [
      entry("t", "one", "same words"),
      entry("t", "two", "same words"),
      entry("t", "three", "other"),
    ];
    const bm25 = new Bm25Retriever(twins, { document: "description" });
    const first = bm25.searchSync("same words", { k: 5 });
    expect(first.map((h) => h.id)).toEqual(["t&&one", "t&&two"]);
    expect(bm25.searchSync("same words", { k: 5 })).toEqual(first);
    expect(bm25.searchSync("same words", { k: 1 })).toHaveLength(1);
    expect(bm25.searchSync("no match at all", { k: 5 })).toEqual([]);
    expect(bm25.searchSync("same", { k: 0 })).toEqual([]);
  });

  it("indexes ToolGen's eval document by default (category, names, parameters)", () => {
    const bm25 = new Bm25Retriever(catalog);
    expect(bm25.searchSync("Stocks", { k: 1 })[0].id).toBe("Stocks&&quote");
    expect(toolgenDocument(catalog[0])).toBe(
      'Data, Weather, current, Current weather conditions for a city, required_params: [], optional_params: [], return_schema: ""',
    );
  });

  it("rejects bad parameters and unknown retriever kinds clearly", async () => {
    expect(() => new Bm25Retriever(catalog, { b: 2 })).toThrow(/0 ≤ b ≤ 1/);
    expect((await createRetriever("bm25", { catalog })).name).toBe("bm25");
  });

  it("createRetriever: a wrong argument throws a ToolgenError naming the valid kinds", async () => {
    const refused = async (...args: unknown[]): Promise<unknown> =>
      (createRetriever as (...a: unknown[]) => Promise<unknown>)(...args).catch((e: unknown) => e);
    const nope = await refused("nope", { catalog });
    expect(ToolgenError.hasCode(nope, "invalid_option")).toBe(true);
    expect((nope as Error).message).toBe(
      'createRetriever(kind, options): kind must be one of ranker, bm25f, bm25, toolgen, hybrid, got "nope"',
    );
    // the slip the README's old text invited: the options object in the kind's place
    expect(((await refused({ catalog })) as Error).message).toBe(
      'createRetriever(kind, options): kind must be one of ranker, bm25f, bm25, toolgen, hybrid, got an object (the kind comes first: createRetriever("bm25", { catalog }))',
    );
    const noCatalog = await refused("bm25", {});
    expect(ToolgenError.hasCode(noCatalog, "invalid_option")).toBe(true);
    expect((noCatalog as Error).message).toMatch(/options\.catalog must be an array of catalog entries/);
  });
});
