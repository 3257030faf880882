import { describe, expect, it } from "vitest";
import { HybridRetriever } from "../../src/retrieval/hybrid.ts";
import type { RetrievalHit, Retriever } from "../../src/retrieval/retriever.ts";

const fixed = (name: string, ids: string[]): Retriever => ({
  name,
  search: async (_q, o) => ids.slice(0, o?.k ?? 10).map((id, i): RetrievalHit => ({ id, score: -i })),
});

describe("hybrid retriever (reciprocal rank fusion)", () => {
  it("ranks items found by both above items found by one, and keeps items only one side knows", async () => {
    const h = new HybridRetriever([fixed("toolgen", ["a", "b", "c"]), fixed("bm25", ["c", "d", "a"])]);
    const hits = await h.search("q", { k: 4 });
    expect(hits.map((x) => x.id)).toEqual(["a", "c", "b", "d"]);
    expect(hits[0]!.score).toBeCloseTo(1 / 61 + 1 / 63, 10);
    expect(h.name).toBe("hybrid(toolgen+bm25)");
  });

  it("weights shift the balance, and bad weights are refused", async () => {
    const h = new HybridRetriever([fixed("x", ["a", "b"]), fixed("y", ["b", "a"])], { weights: [1, 3] });
    expect((await h.search("q", { k: 1 }))[0]!.id).toBe("b");
    expect(() => new HybridRetriever([fixed("x", [])], { weights: [1, 2] })).toThrow(/2 weights for 1/);
    expect(() => new HybridRetriever([])).toThrow(/at least one/);
  });

  it("confidence weighting leaves the ranking to the other retriever when a model is unsure", async () => {
    const scored = (name: string, hits: RetrievalHit[]): Retriever => ({ name, search: async () => hits });
    const flat = scored("toolgen", [
      { id: "x", score: 0.01 },
      { id: "y", score: 0 },
      { id: "z", score: 0 },
    ]);
    const sure = scored("toolgen", [
      { id: "x", score: 9 },
      { id: "y", score: 0 },
    ]);
    const bm25 = fixed("bm25", ["y", "x"]);
    const flatFused = new HybridRetriever([flat, bm25], { weights: [2, 1], confidence: [true, false] });
    expect((await flatFused.search("q", { k: 1 }))[0]!.id).toBe("y");
    const sureFused = new HybridRetriever([sure, bm25], { weights: [2, 1], confidence: [true, false] });
    expect((await sureFused.search("q", { k: 2 })).map((h) => h.id)).toEqual(["x", "y"]);
    expect(() => new HybridRetriever([bm25], { confidence: [true, false] })).toThrow(/2 confidence flags/);
  });
});
