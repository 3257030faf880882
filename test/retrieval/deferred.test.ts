import { describe, expect, it } from "vitest";
import { DeferredRetriever } from "../../src/retrieval/deferred.ts";
import type { Retriever } from "../../src/retrieval/retriever.ts";

const fixed: Retriever = { name: "fixed", search: async () => [{ id: "a", score: 1 }] };

describe("DeferredRetriever", () => {
  it("builds once, after the current work (not in its constructor), and searches through what it built", async () => {
    let builds = 0;
    const deferred = new DeferredRetriever("ranker", async () => (builds++, fixed));
    expect(builds).toBe(0);
    await new Promise((done) => setImmediate(done));
    expect(builds).toBe(1);
    expect(await deferred.search("q")).toEqual([{ id: "a", score: 1 }]);
    expect(builds).toBe(1);
    expect(deferred.name).toBe("ranker");
  });

  it("a search before the build waits for it; a failed build fails the search", async () => {
    let builds = 0;
    const early = new DeferredRetriever("bm25", async () => (builds++, fixed));
    expect(await early.search("q")).toHaveLength(1);
    await new Promise((done) => setImmediate(done));
    expect(builds).toBe(1);
    const broken = new DeferredRetriever("bm25", async () => {
      throw new Error("no index");
    });
    await expect(broken.search("q")).rejects.toThrow("no index");
  });
});
