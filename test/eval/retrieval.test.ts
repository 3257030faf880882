import { describe, expect, it } from "vitest";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { evaluateRetrieval, reportJson, reportMarkdown } from "../../src/eval/retrieval.ts";
import { Bm25Retriever } from "../../src/retrieval/bm25.ts";
import type { Retriever } from "../../src/retrieval/retriever.ts";
import { sharedData } from "../helpers/shared-data.ts";

/** A retriever that returns fixed lists, to check the aggregation by hand. */
const fixed = (lists: Record<string, string[]>): Retriever => ({
  name: "fixed",
  search: async (query, options) =>
    (lists[query] ?? []).slice(0, options?.k).map((id, i) => ({ id, score: 10 - i })),
});

describe("evaluateRetrieval", () => {
  it("aggregates per query file and overall, in percent", async () => {
    const queries: LabelledQuery[] = [
      { query: "q1", relevant: ["a"], source: "one.json" },
      { query: "q2", relevant: ["b", "c"], source: "two.json" },
    ];
    const report = await evaluateRetrieval(fixed({ q1: ["a", "x"], q2: ["x", "c"] }), queries, {
      ks: [1, 5],
    });
    expect(report.bySource["one.json"].ndcg[1]).toBe(100);
    expect(report.bySource["two.json"].ndcg[1]).toBe(0);
    expect(report.bySource["two.json"].recall[5]).toBe(50);
    expect(report.overall.mrr).toBe(0.75);
    const json = reportJson(report);
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining([
        "retriever",
        "queries",
        "ndcg@1",
        "ndcg@5",
        "ndcg_toolgen@1",
        "recall@5",
        "mrr",
        "p50_ms",
        "p95_ms",
      ]),
    );
    expect(json["ndcg@1"]).toBe(50);
    expect(reportMarkdown(report)).toContain("| one.json | 1 | 100.0 |");
  });

  it("leaves queries without a relevant id out of the means and counts them; counts repeated ids", async () => {
    const queries: LabelledQuery[] = [
      { query: "q1", relevant: ["a"] },
      { query: "q2", relevant: [] },
      { query: "q3", relevant: ["b"] },
    ];
    const report = await evaluateRetrieval(
      fixed({ q1: ["a", "a", "x"], q2: ["y"], q3: ["x", "b", "b", "b"] }),
      queries,
      {
        ks: [1, 3],
      },
    );
    expect(report.overall).toMatchObject({ queries: 2, excludedNoRelevant: 1, duplicateHits: 3 });
    expect(report.overall.ndcg[1]).toBe(50); // q1 100, q3 0; q2 is not a 0 in the mean
    expect(report.overall.ndcg[3]).toBeLessThanOrEqual(100);
    expect(report.overall.mrr).toBe(0.75);
    const json = reportJson(report);
    expect(json).toMatchObject({ queries: 2, excluded_no_relevant: 1, duplicate_hits: 3 });
    const markdown = reportMarkdown(report);
    expect(markdown).toContain("1 queries with no relevant id are left out");
    expect(markdown).toContain("3 repeated ids");
  });

  it("rejects bad cut-offs", async () => {
    await expect(evaluateRetrieval(fixed({}), [], { ks: [0] })).rejects.toThrow(/positive integers/);
  });
});

const apis = sharedData("stabletoolbench/apis.json");
describe.skipIf(!apis)("BM25 on the shared StableToolBench catalog", () => {
  it("reaches the plain-BM25 reference on G1_instruction (NDCG@5 ≈ 63.5)", async () => {
    const catalog = loadCatalog(apis as string);
    expect(catalog).toHaveLength(2479);
    const queries = loadQueries((apis as string).replace("apis.json", "G1_instruction.json"), catalog);
    const report = await evaluateRetrieval(new Bm25Retriever(catalog), queries);
    expect(report.overall.queries).toBe(163);
    expect(report.overall.ndcg[5]).toBeGreaterThan(60);
    expect(report.overall.ndcgToolGen[5]).toBeGreaterThan(report.overall.ndcg[5]);
  });
});
