// Issue 41's "done when": `toolgen retrieve`, `toolgen eval retrieval` and `toolgen serve mcp` without
// --retriever use the default (the shipped ranker, the best retriever of bench:retrieval on tools no training
// query named) and say which one. Each command's answer is compared with the ranker's own, and shown to differ
// from BM25's, so a command that silently fell back to another retriever fails here.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { evaluateRetrieval } from "../../src/eval/retrieval.ts";
import { createRetriever, DEFAULT_RETRIEVER } from "../../src/retrieval/create.ts";
import { runCli } from "../helpers/run-cli.ts";
import { spawnRouter } from "../helpers/spawn-router.ts";

const dir = mkdtempSync(join(tmpdir(), "toolgen-default-retriever-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const catalogFile = join(dir, "catalog.json");
writeFileSync(
  catalogFile,
  JSON.stringify(
    [
      ["weather_forecast", "Weather forecast for a city: temperature, rain and wind for the next days"],
      ["air_quality", "Air quality index and pollution levels for a city or zip code"],
      ["currency_convert", "Convert an amount of money between two currencies at today's rate"],
      ["stock_quote", "Latest stock price and market capitalisation of a listed company"],
      ["flight_search", "Search flights between two airports on a date"],
      ["hotel_booking", "Find and book a hotel room in a city for given nights"],
      ["recipe_finder", "Recipes from the ingredients you have in the kitchen"],
      ["translate_text", "Translate a text from one language into another"],
    ].map(([name, description]) => ({ type: "function", function: { name, description } })),
  ),
);
const queriesFile = join(dir, "queries.jsonl");
writeFileSync(
  queriesFile,
  [
    { query: "do I need an umbrella tomorrow", relevant: ["weather_forecast"] },
    { query: "is the air in Delhi safe to breathe today", relevant: ["air_quality"] },
    { query: "how much is 30 euros in yen", relevant: ["currency_convert"] },
    { query: "what is a Tesla share worth", relevant: ["stock_quote"] },
    { query: "I need a place to stay in Paris", relevant: ["hotel_booking"] },
    { query: "say good night in Japanese", relevant: ["translate_text"] },
    { query: "what can I cook with eggs and spinach", relevant: ["recipe_finder"] },
    { query: "get me to Lisbon on Friday", relevant: ["flight_search"] },
  ]
    .map((q) => JSON.stringify(q))
    .join("\n") + "\n",
);
const QUERY = "is the air in Delhi safe to breathe today";

describe("the CLI's default retriever", () => {
  const catalog = loadCatalog(catalogFile);

  it("is the ranker, and ranks otherwise than BM25 here (so the comparisons below can tell them apart)", async () => {
    expect(DEFAULT_RETRIEVER).toBe("ranker");
    const ranker = await (await createRetriever("ranker", { catalog })).search(QUERY, { k: 5 });
    const bm25 = await (await createRetriever("bm25", { catalog })).search(QUERY, { k: 5 });
    expect(ranker.length).toBeGreaterThan(0);
    expect(ranker).not.toEqual(bm25);
  });

  it("toolgen retrieve answers with the ranker's hits and names it", async () => {
    const expected = await (await createRetriever("ranker", { catalog })).search(QUERY, { k: 5 });
    const out = await runCli(["retrieve", QUERY, "--catalog", catalogFile, "--json"]);
    expect(out.code).toBe(0);
    expect(out.stderr).toBe(
      "retriever: ranker (the default; --retriever ranker | bm25f | bm25 | toolgen | hybrid) over 8 catalog entries\n",
    );
    expect((JSON.parse(out.stdout) as { results: unknown }).results).toEqual(expected);
  });

  it("toolgen eval retrieval scores the ranker and names it", async () => {
    const queries = loadQueries(queriesFile, catalog);
    const ranker = await evaluateRetrieval(await createRetriever("ranker", { catalog }), queries);
    const bm25 = await evaluateRetrieval(await createRetriever("bm25", { catalog }), queries);
    const out = await runCli([
      "eval",
      "retrieval",
      "--catalog",
      catalogFile,
      "--queries",
      queriesFile,
      "--json",
    ]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("retriever: ranker (the default;");
    const json = JSON.parse(out.stdout) as Record<string, unknown>;
    expect(json.retriever).toBe(ranker.retriever);
    expect(json["ndcg@5"]).toBe(ranker.overall.ndcg[5]);
    expect(json.mrr).toBe(ranker.overall.mrr);
    expect([ranker.overall.ndcg[5], ranker.overall.mrr]).not.toEqual([
      bm25.overall.ndcg[5],
      bm25.overall.mrr,
    ]);
  });

  it("toolgen serve mcp searches with the ranker and names it", async () => {
    const expected = await (await createRetriever("ranker", { catalog })).search(QUERY, { k: 5 });
    const router = await spawnRouter(["--catalog", catalogFile]);
    try {
      const found = await router.client.callTool({ name: "search_tools", arguments: { query: QUERY, k: 5 } });
      const ids = (found.structuredContent as { results: { id: string }[] }).results.map((r) => r.id);
      expect(ids).toEqual(expected.map((h) => h.id));
      expect(router.stderr()).toMatch(/, ranker retriever, ready in \d+ ms/);
    } finally {
      await router.close();
    }
  }, 60_000);
});
